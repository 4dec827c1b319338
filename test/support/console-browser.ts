import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); undefined where none is installed. */
export const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) =>
  existsSync(file),
);

/** Why a browser suite skips, or false when it runs. */
export const skipWithoutChromium = chromiumPath
  ? false
  : 'chromium is not installed (apt-get install chromium)';

/** The operator test/support/console-client.ts creates (signInToConsole). */
export const operator = { email: 'ops@example.com', password: 'operator passphrase 42' };

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });

const imagesDir = path.resolve(import.meta.dirname, '../../docs/images');

/** COFFER_SCREENSHOTS=1 writes each main page's picture into docs/images (the README shows them). */
export async function picture(page: Page, name: string): Promise<void> {
  if (process.env.COFFER_SCREENSHOTS === '1')
    await page.screenshot({ path: path.join(imagesDir, `console-${name}.png`), fullPage: true });
}

/**
 * A page that collects policy violations and script errors (`problems`: assert it stays
 * empty). Confirmations are accepted unless the test queued a `false` for the next one.
 */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const dialogs: string[] = [];
  const dialogAnswers: boolean[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void (dialogAnswers.shift() === false ? dialog.dismiss() : dialog.accept());
  });
  return { page, problems, dialogs, dialogAnswers };
}

/** Signs in with the password form; the projects page is shown. */
export async function signIn(page: Page, baseUrl: string, who = operator): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
}

/** Every control the page shows has an accessible name (label, aria-label, text or alt). */
export async function assertNamedControls(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('a, button, input, select, textarea, img, iframe, [role="img"]')]
      .filter((element) => {
        const named =
          element.getAttribute('aria-label') ||
          element.getAttribute('title') ||
          element.getAttribute('alt') ||
          (element as HTMLInputElement).labels?.length ||
          element.textContent?.trim();
        return !named;
      })
      .map((element) => element.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, [], 'controls without an accessible name');
}

type Shift = { value: number; moved: string[] };

/**
 * Loads `url` as a new document and answers its cumulative layout shift once it has settled:
 * the network quiet, the images in view loaded, two frames drawn. The shifts come from a
 * PerformanceObserver of 'layout-shift' entries (buffered: the ones before it was made too);
 * those right after the user's own input (hadRecentInput) do not count, as in Chrome's CLS.
 */
export async function layoutShiftOf(page: Page, url: string, ready: () => Promise<unknown>) {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'networkidle' });
  await ready();
  // A lazy image below the window is not fetched at all: it cannot move anything on screen yet.
  await page.waitForFunction(() =>
    [...document.images].every(
      (image) =>
        image.complete || (image.loading === 'lazy' && image.getBoundingClientRect().top >= innerHeight),
    ),
  );
  const shifts = await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const observer = new PerformanceObserver(() => undefined);
    observer.observe({ type: 'layout-shift', buffered: true });
    type LayoutShift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    };
    return (observer.takeRecords() as LayoutShift[])
      .filter((entry) => !entry.hadRecentInput)
      .map((entry) => ({
        value: entry.value,
        moved: entry.sources.map(
          (source) =>
            `${source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : source.node?.nodeName} from ${JSON.stringify(source.previousRect)} to ${JSON.stringify(source.currentRect)}`,
        ),
      }));
  });
  return { score: shifts.reduce((sum: number, shift: Shift) => sum + shift.value, 0), shifts };
}
