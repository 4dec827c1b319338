import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Debian's chromium (.ci/run installs it, as it installs PostgreSQL). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));

/** An app's plain page on another origin: no bundler, no copy of the client. */
function startAppSite(): Promise<Server> {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>plain page</title>');
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(site)));
}

// The built client served by Coffer as one ES module (scripts/build-sdk.ts, run by npm install and npm test).
describe('/sdk/coffer-client.js: @coffer/client for a plain <script type="module"> page', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('is one module any origin may import, revalidated by ETag, and pinned under a hashed name for good', async () => {
    const module = await fetch(`${server.baseUrl}/sdk/coffer-client.js`);
    assert.equal(module.status, 200);
    assert.equal(module.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(module.headers.get('access-control-allow-origin'), '*');
    assert.equal(module.headers.get('cache-control'), 'no-cache');
    const source = await module.text();
    assert.match(source, /export \{[^}]*\bCofferClient\b/);
    assert.doesNotMatch(source, /^import /m, 'no import left for a bundler to resolve');
    const etag = module.headers.get('etag')!;
    const again = await fetch(`${server.baseUrl}/sdk/coffer-client.js`, {
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    const pinned = module.headers.get('content-location')!;
    assert.match(pinned, /^\/sdk\/coffer-client-[0-9a-f]{12}\.js$/);
    const hashed = await fetch(`${server.baseUrl}${pinned}`);
    assert.equal(hashed.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await hashed.text(), source);
    const unknown = await fetch(`${server.baseUrl}/sdk/coffer-client-000000000000.js`);
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, 'NOT_FOUND');
    assert.equal((await fetch(`${server.baseUrl}/sdk/..%2fpackage.json`)).status, 404);
  });

  describe('in headless Chromium', {
    skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
  }, () => {
    let site: Server;
    let browser: Browser;
    before(async () => {
      site = await startAppSite();
      browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    });
    after(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
    });

    it('a page of another origin imports it from Coffer, signs up, uploads and downloads', async () => {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const app = await server.createProject('plain-page-app', [origin]);
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        const outcome = await page.evaluate(
          async ({ baseUrl, appId }) => {
            const { CofferClient } = await import(`${baseUrl}/sdk/coffer-client.js`);
            const client = new CofferClient({ baseUrl, appId });
            await client.signup({ email: 'plain@page.example', password: 'correct horse' });
            const file = await client.upload('plain/hello.txt', new Blob(['hello from a plain page']));
            return { verified: file.verified, text: await (await client.download(file._id)).text() };
          },
          { baseUrl: server.baseUrl, appId: app.credentials.appId },
        );
        assert.deepEqual(outcome, { verified: true, text: 'hello from a plain page' });
      } finally {
        await page.close();
      }
    });

    it('from an origin the project does not allow, the error names the setting to change', async () => {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const app = await server.createProject('other-origins-app', ['https://app.example']);
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        const refused = await page.evaluate(
          async ({ baseUrl, appId }) => {
            const { CofferClient } = await import(`${baseUrl}/sdk/coffer-client.js`);
            try {
              await new CofferClient({ baseUrl, appId }).signup({
                email: 'x@page.example',
                password: 'correct horse',
              });
              return { code: 'none', message: '' };
            } catch (error) {
              return { code: (error as { code: string }).code, message: (error as Error).message };
            }
          },
          { baseUrl: server.baseUrl, appId: app.credentials.appId },
        );
        assert.equal(refused.code, 'NETWORK_ERROR');
        assert.ok(
          refused.message.includes(`npx coffer project origin add <project> ${origin}`),
          refused.message,
        );
      } finally {
        await page.close();
      }
    });
  });
});
