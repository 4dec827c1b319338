import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { consoleSecurityPolicy, serveConsoleFrom } from '../../src/http/console/serve-console-app.ts';
import { startTestServer } from '../support/in-process-server.ts';

// The built app: `npm test` builds it in pretest; a single-file run needs `npm run console:build`.
describe('the console app is served from dist/console', () => {
  it('answers /console and its client routes with index.html under the strict policy, and hashed assets for good', async () => {
    const server = await startTestServer();
    try {
      for (const route of ['/console', '/console/', '/console/projects/abc/users']) {
        const page = await fetch(`${server.baseUrl}${route}`);
        assert.equal(page.status, 200, route);
        assert.equal(page.headers.get('content-security-policy'), consoleSecurityPolicy);
        assert.equal(page.headers.get('x-frame-options'), 'DENY');
        assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
        assert.equal(page.headers.get('cache-control'), 'no-store');
        const html = await page.text();
        assert.doesNotMatch(html, /<script>|<style|style=/, 'no inline script or style');
        const script = /src="(\/console\/assets\/main-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
        assert.ok(script, html);
        const asset = await fetch(`${server.baseUrl}${script}`);
        assert.equal(asset.status, 200);
        assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
        assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
        await asset.arrayBuffer();
      }
      const missing = await fetch(`${server.baseUrl}/console/assets/../../package.json`);
      assert.notEqual(missing.status, 200);
      await missing.arrayBuffer();
      const unknownAsset = await fetch(`${server.baseUrl}/console/assets/main-AAAAAAAA.js`);
      assert.equal(unknownAsset.status, 404);
      await unknownAsset.arrayBuffer();
      const openapi = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
      assert.ok(
        !Object.keys(openapi.paths).some((route) => route.startsWith('/console')),
        'kept out of the document',
      );
    } finally {
      await server.stop();
    }
  });
});

describe('without a build', () => {
  it('answers /console with a 503 that says to run npm run console:build', async () => {
    const app = Fastify();
    serveConsoleFrom(path.join(tmpdir(), 'coffer-no-console-build'))(app as never);
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const page = await fetch(`${baseUrl}/console/projects`);
      assert.equal(page.status, 503);
      assert.equal(page.headers.get('content-security-policy'), consoleSecurityPolicy);
      const body = await page.json();
      assert.equal(body.code, 'UNAVAILABLE');
      assert.match(body.message, /npm run console:build/);
    } finally {
      await app.close();
    }
  });
});
