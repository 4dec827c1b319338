import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** A raw request on its own connection: the answer's head, lower-cased header names. */
function rawHead(baseUrl: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', (error) => (text ? undefined : reject(error)));
    socket.on('close', () => resolve(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()));
  });
}

describe('response hardening headers', () => {
  let server: TestServer;
  let token: string;
  let fileId: string;
  let downloadUrl: string;
  let etag: string;
  let uploadUrl: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
    const file = await server.client.uploadFile(token, 'hardening.txt', 'some content');
    fileId = file._id;
    etag = file.etag as string;
    downloadUrl = (await server.client.call('GET', `/api/v1/file/${fileId}`, { token })).body.url;
    uploadUrl = (
      await server.client.call('POST', '/api/v1/file', { token, body: { filePath: 'unverified.txt' } })
    ).body.putFileUrl;
  });
  after(() => server.stop());

  it('answers that carry a token or a signed link are Cache-Control: no-store', async () => {
    const email = `${Math.random().toString(36).slice(2)}@example.com`;
    const password = 'correct horse battery';
    const cases = [
      ['signup', () => server.client.call('POST', '/api/v1/auth/signup', { body: { email, password } })],
      ['login', () => server.client.call('POST', '/api/v1/auth/login', { body: { email, password } })],
      [
        'request upload',
        () => server.client.call('POST', '/api/v1/file', { token, body: { filePath: 'n.txt' } }),
      ],
      ['get file', () => server.client.call('GET', `/api/v1/file/${fileId}`, { token })],
      ['list files', () => server.client.call('GET', '/api/v1/file', { token })],
      ['profile', () => server.client.call('GET', '/api/v1/user', { token })],
      ['control-plane error', () => server.client.call('GET', '/api/v1/user')],
    ] as const;
    for (const [name, call] of cases) {
      const response = await call();
      assert.ok(response.status < 500, `${name}: ${response.status}`);
      assert.equal(response.headers.get('cache-control'), 'no-store', name);
    }
  });

  it('every answer of both planes is Referrer-Policy: no-referrer', async () => {
    const app = { 'sb-app-id': server.credentials.appId, 'sb-app-secret': server.credentials.appSecret };
    const fetched: Array<[string, number, string, RequestInit?]> = [
      [
        'control plane',
        200,
        `${server.baseUrl}/api/v1/user`,
        { headers: { ...app, authorization: `Bearer ${token}` } },
      ],
      ['control plane error', 401, `${server.baseUrl}/api/v1/user`, { headers: app }],
      ['control plane preflight', 403, `${server.baseUrl}/api/v1/file`, { method: 'OPTIONS' }],
      ['unknown route', 404, `${server.baseUrl}/nothing/here`],
      ['URL that does not decode', 400, `${server.baseUrl}/api/v1/file/%E0%A4%A`],
      ['health', 200, `${server.baseUrl}/healthz`],
      ['OpenAPI document', 200, `${server.baseUrl}/docs`],
      ['download', 200, downloadUrl],
      ['download HEAD', 200, downloadUrl, { method: 'HEAD' }],
      ['download range', 206, downloadUrl, { headers: { range: 'bytes=0-1' } }],
      ['download past the end', 416, downloadUrl, { headers: { range: 'bytes=99-' } }],
      ['download not modified', 304, downloadUrl, { headers: { 'if-none-match': etag } }],
      ['tampered link', 403, `${downloadUrl}x`],
      ['upload', 200, uploadUrl, { method: 'PUT', body: 'new bytes' }],
      ['data plane preflight', 204, uploadUrl, { method: 'OPTIONS' }],
    ];
    for (const [name, status, url, init] of fetched) {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      assert.equal(response.status, status, name);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', name);
    }
    const raw: Array<[string, string]> = [
      ['garbage instead of HTTP', 'HELLO THERE\r\n\r\n'],
      ['no Host header', 'GET /healthz HTTP/1.1\r\n\r\n'],
      ['oversized headers', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ];
    for (const [name, request] of raw) {
      const head = await rawHead(server.baseUrl, request);
      assert.match(head, /^http\/1\.1 4\d\d /, name);
      assert.match(head, /\r\nreferrer-policy: no-referrer(\r\n|$)/, `${name}: ${head}`);
    }
  });
});
