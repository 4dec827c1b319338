import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { skipWithoutChromium } from '../support/console-browser.ts';
import type { TestServer } from '../support/in-process-server.ts';
import { addAndUpload, assertReadmeHolds, startUppyStage } from './uppy-example-site.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** The README's Uppy example, as the page runs it (the test reads it from this one place). */
const example = path.join(root, 'examples', 'uppy', 'coffer-uppy.js');

/**
 * Issue 43 item 4: Uppy from npm (Dashboard + Tus) uploads to Coffer through the Dashboard, and
 * the file comes out verified and readable with nothing but the README's example.
 */
describe('Uppy (Dashboard + Tus) in headless Chromium, the README example', {
  skip: skipWithoutChromium,
}, () => {
  let stage: Awaited<ReturnType<typeof startUppyStage>>;
  let server: TestServer;
  let site: Awaited<ReturnType<typeof startUppyStage>>['site'];
  let browser: Browser;
  before(async () => {
    stage = await startUppyStage(example);
    ({ server, site, browser } = stage);
  });
  after(() => stage?.close());

  it('the README shows the example as it is', () => assertReadmeHolds(example));

  // A bound, not a measure: an upload that never completes fails the test instead of hanging it.
  it('a file added to the Dashboard and uploaded is verified by its last byte, and reads back', {
    timeout: 120_000,
  }, async () => {
    const { origin } = site;
    const app = await server.createProject('uppy-app', [origin]);
    const { token } = await app.signup();
    const content = randomBytes(600 * 1024);
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.evaluate(
        async ({ baseUrl, appId, token }) => {
          const exampleModule = '/coffer-uppy.js'; // served by the app site above
          const { cofferUppy } = await import(exampleModule);
          const uppy = cofferUppy({ target: '#uppy', baseUrl, appId, token });
          const done = new Promise((resolve) => uppy.on('complete', resolve));
          Object.assign(window, { uppy, done });
        },
        { baseUrl: server.baseUrl, appId: app.credentials.appId, token },
      );
      await addAndUpload(page, { name: 'photo.bin', content: content });
      const outcome = await page.evaluate(async () => {
        type Done = { successful: { meta: Record<string, unknown> }[]; failed: { error: string }[] };
        const result = (await (window as unknown as { done: Promise<Done> }).done) as Done;
        return {
          failed: result.failed.map((file) => String(file.error)),
          meta: result.successful.map((file) => ({
            id: file.meta.cofferFileId,
            verified: file.meta.verified,
          })),
        };
      });
      assert.deepEqual(outcome.failed, []);
      assert.equal(outcome.meta.length, 1);
      assert.equal(outcome.meta[0]?.verified, true);
      const fileId = String(outcome.meta[0]?.id);
      const file = await app.call('GET', `/api/v1/file/${fileId}`, { token });
      assert.equal(file.status, 200, file.text);
      assert.equal(file.body.verified, true);
      assert.equal(file.body.filePath, 'uploads/photo.bin');
      assert.deepEqual(Buffer.from(await (await fetch(file.body.url)).arrayBuffer()), content);
    } finally {
      await page.close();
    }
  });
});
