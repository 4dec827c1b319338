import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Requests that never reach a route still answer in the one error shape, with a stable code. */
describe('malformed HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_HEADERS_TIMEOUT_SECONDS: '1' });
  });
  after(() => server.stop());

  const raw = (request: string, waitForClose = true) =>
    new Promise<{ status: number; body: { code?: string } }>((resolve, reject) => {
      const { port } = new URL(server.baseUrl);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', (error) => (text ? undefined : reject(error)));
      socket.on('close', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        const body = text.slice(text.indexOf('\r\n\r\n') + 4);
        resolve({ status, body: body ? JSON.parse(body) : {} });
      });
      if (!waitForClose) socket.end();
    });

  it('a URL that does not percent-decode → 400 VALIDATION_FAILED', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/file/%E0%A4%A`);
    assert.equal(response.status, 400);
    assert.equal((await response.json()).code, 'VALIDATION_FAILED');
  });

  it('oversized headers → 431 HEADERS_TOO_LARGE', async () => {
    const response = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(response.status, 431);
    assert.equal(response.body.code, 'HEADERS_TOO_LARGE');
  });

  it('garbage instead of HTTP → 400 VALIDATION_FAILED', async () => {
    const response = await raw('HELLO THERE\r\n\r\n');
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'VALIDATION_FAILED');
  });

  it('an HTTP/1.1 request without Host → 400 VALIDATION_FAILED in the error shape', async () => {
    const response = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      statusCode: 400,
      error: 'Bad Request',
      code: 'VALIDATION_FAILED',
      message: 'An HTTP/1.1 request needs a Host header',
    });
  });

  it('headers that never end → 408 REQUEST_TIMEOUT, connection closed', async () => {
    const started = Date.now();
    const response = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    assert.equal(response.status, 408);
    assert.equal(response.body.code, 'REQUEST_TIMEOUT');
    // A hang guard, not a speed check: the 1 s headers timeout fired, not some far later one (a
    // loaded machine may take several seconds to get there).
    const tookMs = Date.now() - started;
    assert.ok(tookMs < 30_000, `the 408 came after ${tookMs} ms`);
  });
});
