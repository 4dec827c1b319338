import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/console-browser.ts';
import { startTestServer } from '../support/in-process-server.ts';
import { startStaticSite } from '../support/static-site.ts';

/**
 * The app's site of the Uppy browser tests: a page with a `#uppy` element, and the README's
 * example at `/<its file name>`, bundled with Uppy from npm as scripts/build-sdk.ts bundles the SDK.
 */
export async function startUppyExampleSite(example: string) {
  const result = await build({
    entryPoints: [example],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
  });
  return startStaticSite({
    '/': { type: 'text/html', body: '<!doctype html><title>app</title><div id="uppy"></div>' },
    [`/${path.basename(example)}`]: { type: 'text/javascript', body: result.outputFiles[0]!.contents },
  });
}

/** Adds one file to the Dashboard as a user picks it, and presses Upload. */
export async function addAndUpload(page: Page, file: { name: string; content: Buffer }): Promise<void> {
  await page.setInputFiles('.uppy-Dashboard-input[type="file"]:not([webkitdirectory])', {
    name: file.name,
    mimeType: 'application/octet-stream',
    buffer: file.content,
  });
  await page.click('.uppy-StatusBar-actionBtn--upload');
}

/** The README shows the example exactly as the test runs it. */
export async function assertReadmeHolds(example: string): Promise<void> {
  const readme = await readFile(path.join(import.meta.dirname, '../../README.md'), 'utf8');
  assert.ok(readme.includes(await readFile(example, 'utf8')), `README.md holds ${path.basename(example)}`);
}

/** A Coffer server, the app's site with the example, and Chromium; `close` ends all three. */
export async function startUppyStage(example: string) {
  const server = await startTestServer();
  // The app's page, and the example bundled with Uppy as the app would serve it.
  const site = await startUppyExampleSite(example).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await Promise.all([site.close(), server.stop()]);
    throw error;
  });
  return {
    server,
    site,
    browser,
    close: async () => {
      await browser.close();
      await site.close();
      await server.stop();
    },
  };
}
