import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { stripTypeScriptTypes } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Debian's chromium (.ci/run installs it, as it installs PostgreSQL). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const clientDir = path.resolve(import.meta.dirname, '../../packages/client/src');

/**
 * An app's own site on another origin: a page, and @coffer/client's sources as browser
 * modules (types stripped by Node, as a bundler would).
 */
function startAppSite(): Promise<Server> {
  const site = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const file = /^\/client\/([a-z-]+\.ts)$/.exec(url.pathname)?.[1];
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
    } else if (file && existsSync(path.join(clientDir, file))) {
      const source = await readFile(path.join(clientDir, file), 'utf8');
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(stripTypeScriptTypes(source));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(site)));
}

describe('@coffer/client in headless Chromium, from an allowed origin without the secret', {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, () => {
  let server: TestServer;
  let site: Server;
  let browser: Browser;
  before(async () => {
    server = await startTestServer();
    site = await startAppSite();
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await server?.stop();
  });

  it('signs up, uploads a Blob with progress (XHR), reads its record and downloads it', async () => {
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const app = await server.createProject('browser-app', [origin]);
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      const outcome = await page.evaluate(
        async ({ baseUrl, appId }) => {
          const clientModule = '/client/index.ts'; // served by the app site above
          const { CofferClient } = await import(clientModule);
          const client = new CofferClient({ baseUrl, appId });
          await client.signup({ email: 'browser@client.example', password: 'correct horse' });
          const content = 'x'.repeat(512 * 1024);
          const progress: number[] = [];
          const file = await client.upload('browser/hello.txt', new Blob([content], { type: 'text/plain' }), {
            onProgress: ({ loadedBytes }: { loadedBytes: number }) => progress.push(loadedBytes),
          });
          const downloaded = await (await client.download(file._id)).text();
          const listed = [];
          for await (const record of client.list()) listed.push(record._id);
          let denied = '';
          try {
            await new CofferClient({ baseUrl, appId }).profile();
          } catch (error) {
            denied = (error as { code: string }).code;
          }
          return {
            verified: file.verified,
            type: file.meta.ContentType,
            sameContent: downloaded === content,
            lastProgress: progress.at(-1),
            listed: listed.length === 1 && listed[0] === file._id,
            denied,
          };
        },
        { baseUrl: server.baseUrl, appId: app.credentials.appId },
      );
      assert.deepEqual(outcome, {
        verified: true,
        type: 'text/plain',
        sameContent: true,
        lastProgress: 512 * 1024,
        listed: true,
        denied: 'AUTH_REQUIRED',
      });
    } finally {
      await page.close();
    }
  });
});
