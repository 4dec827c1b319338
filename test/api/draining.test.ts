import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// A worker told to stop (SIGTERM) closes its app: idle connections close, requests in flight
// finish. A request that reaches the router after the drain began is served, with Connection:
// close; it never gets Fastify's own 503, which is outside the error shape (and would refuse
// work the draining worker can still do).
describe('a server that is draining', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('serves a request that arrives during the drain, then closes the connection', async () => {
    const { port } = new URL(server.baseUrl);
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    const headers =
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `sb-app-id: ${server.credentials.appId}\r\nsb-app-secret: ${server.credentials.appSecret}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    let closing: Promise<void> | undefined;
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        // The connection is open (so not idle: a drain waits for it) when the drain begins.
        socket.write(headers);
        setImmediate(() => {
          closing = server.beginClose();
          socket.write(body);
        });
      });
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    await closing;
    const statuses = answers.match(/^HTTP\/1\.1 \d{3}/gm);
    assert.deepEqual(statuses, ['HTTP/1.1 401'], answers);
    assert.match(answers, /"code":"INVALID_LOGIN"/);
    assert.match(answers, /connection: close/i);
  });
});
