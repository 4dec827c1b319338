import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { serve } from '../../src/main.ts';
import { buildServices } from '../../src/services.ts';
import { startTestServer } from '../support/in-process-server.ts';
import { makeCertificate } from '../support/tls-fixtures.ts';

/** Folders the tests made, removed after them. */
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('barrier 1: HTTPS only', () => {
  it('behind --trust-proxy, a request not forwarded as https is HTTPS_REQUIRED; health stays open', async () => {
    const server = await startTestServer({ 'trust-proxy': true });
    try {
      const plain = await server.client.call('GET', '/api/v1/user');
      assert.equal(plain.status, 403);
      assert.equal(plain.body.code, 'HTTPS_REQUIRED');
      const forwardedHttp = await server.client.call('GET', '/api/v1/user', {
        headers: { 'x-forwarded-proto': 'http' },
      });
      assert.equal(forwardedHttp.body.code, 'HTTPS_REQUIRED');
      const forwardedHttps = await server.client.call('GET', '/api/v1/user', {
        headers: { 'x-forwarded-proto': 'https' },
      });
      assert.equal(forwardedHttps.body.code, 'AUTH_REQUIRED', 'passes barrier 1, stops at barrier 3');
      // Issue 25, item 4: the scheme is what the nearest proxy set, the last entry; an `https`
      // the client wrote before a proxy that appends its own `http` is not it.
      const clientWritten = await server.client.call('GET', '/api/v1/user', {
        headers: { 'x-forwarded-proto': 'https, http' },
      });
      assert.equal(clientWritten.body.code, 'HTTPS_REQUIRED');
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('refuses to serve plain HTTP on a non-loopback address', async () => {
    const config = loadConfig({ host: '0.0.0.0', port: '0', 'data-dir': tempDir('coffer-') }, {});
    await assert.rejects(serve(config), /refusing to serve plain HTTP on 0\.0\.0\.0/);
  });

  it('serves HTTPS itself with --tls-cert/--tls-key', async () => {
    const dir = tempDir('coffer-tls-');
    const { cert, key } = await makeCertificate(dir, 'server');
    const config = loadConfig({ 'data-dir': dir, 'tls-cert': cert, 'tls-key': key }, {});
    const services = await buildServices(config);
    const app = await buildApp(services, {
      logger: false,
      tls: { cert: readFileSync(cert), key: readFileSync(key) },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      assert.match(url, /^https:/);
      const { request } = await import('node:https');
      const status = await new Promise<number>((resolve, reject) => {
        request(`${url}/healthz`, { rejectUnauthorized: false }, (response) =>
          resolve(response.statusCode ?? 0),
        )
          .on('error', reject)
          .end();
      });
      assert.equal(status, 200);
    } finally {
      await app.close();
      await services.close();
    }
  });
});
