import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { it } from 'node:test';
import { build } from 'esbuild';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CofferClient, type Session } from '../../packages/client/src/index.ts';
import { type HoldingProxy, startHoldingProxy } from '../support/holding-proxy.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Debian's chromium (.ci/run installs it, as it installs PostgreSQL). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const MiB = 1024 * 1024;
const sizeBytes = 24 * MiB + 321;

/** The page's bytes, made here the same way: byte i is (i * 31 + (i >> 12)) & 255. */
const expectedBytes = () => new Uint8Array(sizeBytes).map((_, index) => (index * 31 + (index >> 12)) & 255);

/** An app's own site on another origin: a page, and @coffer/client bundled as one module (esbuild). */
async function startAppSite(): Promise<Server> {
  const bundle = await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../packages/client/src/index.ts')],
    bundle: true,
    format: 'esm',
    write: false,
  });
  const clientModule = bundle.outputFiles[0]!.text;
  const site = createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>');
    else if (request.url === '/coffer-client.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(clientModule);
    else response.writeHead(404).end();
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(site)));
}

type PageOutcome = { firstProgress: number; resumedAt: number[]; fileId: string; checksum: string };

/**
 * Starts, on the page, the upload a user would: a 24 MiB File picked from disk (fixed name and
 * lastModified: the same file after a reload), with @coffer/client's defaults (10 MiB chunks,
 * state in localStorage). Progress goes to `window.uploadProgress`; the outcome, once there,
 * to `window.uploadOutcome`.
 */
function startUploadOnPage(page: Page, input: { baseUrl: string; appId: string; session: Session }) {
  return page.evaluate(
    async ({ baseUrl, appId, session, sizeBytes }) => {
      const clientModule = '/coffer-client.js'; // served by the app site above
      const { CofferClient } = await import(clientModule);
      const bytes = new Uint8Array(sizeBytes).map((_, index) => (index * 31 + (index >> 12)) & 255);
      const file = new File([bytes], 'trip.mp4', { type: 'video/mp4', lastModified: 1_700_000_000_000 });
      const state = window as unknown as { uploadProgress: number[]; uploadOutcome: unknown };
      state.uploadProgress = [];
      const resumedAt: number[] = [];
      const client = new CofferClient({ baseUrl, appId, session });
      client
        .upload('videos/trip.mp4', file, {
          onProgress: ({ loadedBytes }: { loadedBytes: number }) => state.uploadProgress.push(loadedBytes),
          onResume: (offsetBytes: number) => resumedAt.push(offsetBytes),
        })
        .then(
          (record: { _id: string; meta: { ChecksumSHA256?: string } }) => {
            state.uploadOutcome = {
              firstProgress: state.uploadProgress[0],
              resumedAt,
              fileId: record._id,
              checksum: record.meta.ChecksumSHA256,
            };
          },
          (error: Error) => {
            state.uploadOutcome = { error: String(error) };
          },
        );
    },
    { ...input, sizeBytes },
  );
}

/** The upload states @coffer/client keeps in the page's localStorage. */
const storedStates = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('coffer-upload:'))
      .map((key) => JSON.parse(localStorage.getItem(key)!) as { fileId: string; resumableUrl: string }),
  );

type Stack = { server: TestServer; origin: string; appId: string; session: Session };

/** A page of the app in this browser profile, that has started the upload. */
async function openAndUpload(context: BrowserContext, stack: Stack): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${stack.origin}/`);
  await startUploadOnPage(page, {
    baseUrl: stack.server.baseUrl,
    appId: stack.appId,
    session: stack.session,
  });
  return page;
}

/** The first page: starts the upload, is closed while its second chunk hangs. What the server kept. */
async function closeMidUpload(context: BrowserContext, stack: Stack, proxy: HoldingProxy) {
  const page = await openAndUpload(context, stack);
  // Past the first chunk (about two fifths): it was answered, so the server holds it.
  await page.waitForFunction(
    (pastFirst) =>
      (window as unknown as { uploadProgress: number[] }).uploadProgress.some((n) => n > pastFirst),
    11 * MiB,
  );
  const [stored] = await storedStates(page);
  assert.ok(stored, 'the upload is remembered in localStorage');
  await page.close();
  proxy.release(); // the hanging chunk's connection ends at the server
  const head = await fetch(stored.resumableUrl, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
  return { stored, kept: Number(head.headers.get('upload-offset')) };
}

/** A new page of the same profile starts the same upload, and waits for its outcome. */
async function uploadAgain(context: BrowserContext, stack: Stack) {
  const page = await openAndUpload(context, stack);
  const outcome = await page.waitForFunction(
    () => (window as unknown as { uploadOutcome?: unknown }).uploadOutcome,
  );
  return { outcome: (await outcome.jsonValue()) as PageOutcome, statesLeft: await storedStates(page) };
}

// Issue 20, "Done when": a page using @coffer/client uploads a large file, is closed
// mid-upload, reopened, and the upload resumes where it stopped.
it('@coffer/client in Chromium: a page closed mid-upload, reopened, goes on where the server stopped', {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, async () => {
  const server = await startTestServer();
  const site = await startAppSite();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  // The data plane goes through a proxy that stalls after 15 MiB: the first 10 MiB chunk is
  // kept, and the page is closed while the second hangs.
  const proxy = await startHoldingProxy(server.baseUrl, 15 * MiB);
  server.services.publicUrl.value = proxy.origin;
  try {
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const { credentials } = await server.createProject('resume-app', [origin]);
    const nodeClient = new CofferClient({ baseUrl: server.baseUrl, ...credentials });
    const session = await nodeClient.signup({ email: 'reload@client.example', password: 'correct horse' });
    const stack = { server, origin, appId: credentials.appId, session };
    const context = await browser.newContext(); // one profile: localStorage outlives the page

    const { stored, kept } = await closeMidUpload(context, stack, proxy);
    assert.ok(kept >= 10 * MiB, `the server kept the first chunk (${kept})`);
    const { outcome, statesLeft } = await uploadAgain(context, stack);
    assert.equal(outcome.fileId, stored.fileId, `the same upload: ${JSON.stringify(outcome)}`);
    assert.ok(outcome.firstProgress >= kept, `progress starts at ${outcome.firstProgress}, kept ${kept}`);
    assert.equal(outcome.resumedAt.length, 1);
    assert.ok(outcome.resumedAt[0]! >= kept);
    const expected = createHash('sha256').update(expectedBytes()).digest('base64');
    assert.equal(outcome.checksum, expected);
    assert.deepEqual(statesLeft, [], 'forgotten once verified');
    const downloaded = new Uint8Array(await (await nodeClient.download(outcome.fileId)).arrayBuffer());
    assert.equal(createHash('sha256').update(downloaded).digest('base64'), expected);
  } finally {
    await browser.close();
    await proxy.stop();
    await new Promise((resolve) => site.close(resolve));
    await server.stop();
  }
});
