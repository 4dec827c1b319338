import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

/** Debian's chromium (.ci/run installs it). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const password = 'operator passphrase 42';

/** Every image and control has an accessible name (a thumbnail's alt included). */
async function assertNamedControls(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('a, button, input, select, textarea, img, iframe, [role="img"]')]
      .filter(
        (element) =>
          !(
            element.getAttribute('aria-label') ||
            element.getAttribute('alt') ||
            (element as HTMLInputElement).labels?.length ||
            element.textContent?.trim()
          ),
      )
      .map((element) => element.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, [], 'controls without an accessible name');
}

// The console's side of issue 21 in a real browser against `coffer serve`: thumbnails in the
// file list (rendered by sharp, through the console's thumbnail route), an image's size and
// ThumbHash placeholder in its detail, and the project's rendition presets.
describe('the console shows renditions', {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let token: string;
  let photoId: string;
  before(async () => {
    coffer = await startCofferProcess();
    const created = await runCli(
      ['operator', 'create', '--email', 'ops@example.com', '--password-stdin', '--data-dir', coffer.dataDir],
      coffer.env,
      { input: password },
    );
    assert.equal(created.code, 0, created.stderr);
    ({ token } = await coffer.client.signup('sam@renditions.example'));
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#f00' } })
      .jpeg()
      .toBuffer();
    photoId = (await coffer.client.uploadFile(token, 'photos/red.jpg', jpeg, { contentType: 'image/jpeg' }))
      ._id;
    await coffer.client.uploadFile(token, 'notes/readme.txt', 'no picture here', {
      contentType: 'text/plain',
    });
    // An image type whose bytes are no image: its thumbnail fails (422) in the browser.
    await coffer.client.uploadFile(token, 'photos/broken.png', 'not a png', { contentType: 'image/png' });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  /** A signed-in page that records any policy violation or script error. */
  async function openSignedIn() {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${coffer.baseUrl}/console`);
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    return { page, problems };
  }

  /** The console API as the page calls it (its session cookie, its header). */
  const consoleApi = (page: Page, method: string, path: string) =>
    page.evaluate(
      async ([method, path]) => {
        const response = await fetch(`/console/api${path}`, { method, headers: { 'X-Coffer-Console': '1' } });
        return { status: response.status, body: await response.json() };
      },
      [method, path] as const,
    );

  it('lists images with a loaded thumbnail, and other files and broken images without one', async () => {
    const { page, problems } = await openSignedIn();
    try {
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      const row = (path: string) => page.getByRole('row').filter({ hasText: path });
      await row('notes/readme.txt').waitFor();
      const thumbnail = page.getByRole('img', { name: 'Thumbnail of photos/red.jpg' });
      await thumbnail.waitFor();
      await page.waitForFunction(() => {
        const image = document.querySelector(
          'img[alt="Thumbnail of photos/red.jpg"]',
        ) as HTMLImageElement | null;
        return image?.complete && image.naturalWidth > 0;
      });
      assert.equal(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth), 160);
      const box = await thumbnail.boundingBox();
      assert.deepEqual([box?.width, box?.height], [40, 40], 'the 160px rendition fits the 40px box');
      assert.equal(await row('notes/readme.txt').locator('img').count(), 0, 'a text file has no thumbnail');
      // The broken image's thumbnail answers 422: the <img> goes, its empty box stays.
      await row('photos/broken.png').locator('img').waitFor({ state: 'detached' });
      assert.equal(await row('photos/broken.png').locator('span.thumbnail').count(), 1);
      const rowHeights = await page
        .getByRole('row')
        .evaluateAll((rows) => rows.slice(1).map((row) => row.getBoundingClientRect().height));
      assert.equal(new Set(rowHeights).size, 1, `rows keep one height: ${rowHeights.join(', ')}`);
      await assertNamedControls(page);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it("shows an image's size and paints its placeholder in the file detail", async () => {
    // serve summarizes verified images in the background, a moment after verify.
    for (const deadline = Date.now() + 60_000; ; await delay(100)) {
      const { body } = await coffer.client.call('GET', `/api/v1/file/${photoId}`, { token });
      if (body.meta.placeholder) break;
      assert.ok(Date.now() < deadline, 'the image was never summarized');
    }
    const { page, problems } = await openSignedIn();
    try {
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      await page.getByRole('button', { name: 'photos/red.jpg' }).click();
      const detail = page.locator('dl.record');
      await detail.getByText('400 × 300 px').waitFor();
      const background = await page
        .locator('figure.thumbnail-large')
        .evaluate((figure) => getComputedStyle(figure).backgroundImage);
      assert.match(background, /^url\("data:image\/png;base64,/, 'the ThumbHash painted as the background');
      const large = page.getByRole('img', { name: 'Thumbnail of photos/red.jpg' }).last();
      await page.waitForFunction(() => {
        const image = document.querySelector('figure.thumbnail-large img') as HTMLImageElement | null;
        return image?.complete && image.naturalWidth > 0;
      });
      assert.equal(await large.evaluate((image: HTMLImageElement) => image.width), 160);
      await page.getByRole('button', { name: 'notes/readme.txt' }).click();
      await page.getByRole('heading', { name: 'File notes/readme.txt' }).waitFor();
      assert.equal(await page.locator('figure.thumbnail-large').count(), 0, 'no picture for a text file');
      assert.equal(await detail.getByText('Dimensions').count(), 0);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it('adds and removes a rendition preset on the project page', async () => {
    const { page, problems } = await openSignedIn();
    const { projectId } = coffer.credentials;
    const presetsOf = async () => {
      const { body } = await consoleApi(page, 'GET', '/projects');
      const project = body.projects.find((candidate: { id: string }) => candidate.id === projectId);
      return project.settings.renditionPresets;
    };
    try {
      await page.goto(`${coffer.baseUrl}/console#/projects/${projectId}/settings`);
      await page.getByRole('heading', { name: 'Rendition presets' }).waitFor();
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /\[object Object\]/);
      assert.equal(await page.getByLabel('renditions', { exact: true }).inputValue(), 'any');
      assert.equal(await page.getByLabel('renditionPresets').count(), 0, 'no text input for the object');

      await page.getByLabel('Preset name').fill('thumb');
      await page.getByLabel('Spec').fill('200x200,cover,webp,q80');
      await page.getByRole('button', { name: 'Add preset' }).click();
      await page.getByRole('cell', { name: '200x200-cover-webp-q80' }).waitFor();
      assert.deepEqual(await presetsOf(), { thumb: '200x200-cover-webp-q80' });
      assert.equal(await page.getByLabel('Preset name').inputValue(), '', 'the form is ready for another');

      // A spec the service refuses: its message, and nothing saved.
      await page.getByLabel('Preset name').fill('huge');
      await page.getByLabel('Spec').fill('9000x10');
      await page.getByRole('button', { name: 'Add preset' }).click();
      await page.getByRole('alert').filter({ hasText: /4096/ }).waitFor();
      assert.deepEqual(await presetsOf(), { thumb: '200x200-cover-webp-q80' });
      await assertNamedControls(page);

      await page.getByRole('button', { name: 'Remove preset thumb' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed preset thumb.' }).waitFor();
      assert.equal(await page.getByRole('cell', { name: 'thumb', exact: true }).count(), 0);
      assert.deepEqual(await presetsOf(), {});
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
