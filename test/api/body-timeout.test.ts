import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** What a trickling client saw: the raw answer, and whether the server closed the connection. */
type Trickle = { socket: Socket; answer: Promise<string>; closed: Promise<void> };

/**
 * Sends the headers and the first bytes of a body at once, then one byte every 50 ms, never
 * reaching the declared length, until the server answers or closes.
 */
function trickle(baseUrl: string, head: string, firstBytes: string): Trickle {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\r\n\r\n')) resolve(text);
    });
    socket.once('close', () => resolve(text));
  });
  socket.on('error', () => {}); // the server may reset a connection it closes mid-body
  socket.once('connect', () => {
    socket.write(head + firstBytes);
    timer = setInterval(() => {
      if (socket.writable) socket.write(' ');
    }, 50);
  });
  socket.once('close', () => clearInterval(timer));
  return { socket, answer, closed };
}

/** Fails the test if the promise is still pending after `seconds` (a bound far above the deadline). */
async function within<T>(seconds: number, promise: Promise<T>, what: string): Promise<T> {
  const timeout = sleep(seconds * 1000, 'timeout', { ref: false });
  const winner = await Promise.race([promise, timeout]);
  if (winner === 'timeout') assert.fail(`${what}: nothing within ${seconds} s`);
  return winner as T;
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('slow request bodies', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_BODY_TIMEOUT_SECONDS: '1' });
  });
  after(() => server.stop());

  const appHeaders = () =>
    `sb-app-id: ${server.credentials.appId}\r\nsb-app-secret: ${server.credentials.appSecret}\r\n`;

  it('a JSON body that trickles past the body timeout → 408 REQUEST_TIMEOUT, connection closed; others are served', async () => {
    const slow = trickle(
      server.baseUrl,
      `POST /api/v1/auth/signup HTTP/1.1\r\nHost: x\r\n${appHeaders()}` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"email":',
    );
    // While that connection is held, a normal request on another one is answered.
    const { token } = await server.client.signup();
    const profile = await server.client.call('GET', '/api/v1/user', { token });
    assert.equal(profile.status, 200);

    const answer = await within(30, slow.answer, 'the trickled body');
    assert.equal(statusOf(answer), 408, answer);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.equal(bodyOf(answer).code, 'REQUEST_TIMEOUT');
    await within(30, slow.closed, 'closing the timed-out connection');
  });

  it('a body nobody reads (refused before parsing) cannot hold its connection either', async () => {
    const slow = trickle(
      server.baseUrl,
      'POST /api/v1/file HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"filePath":',
    );
    const answer = await within(30, slow.answer, 'the refusal');
    assert.equal(statusOf(answer), 401, answer);
    // The 401 leaves at once; the rest of the body still has to arrive within the deadline.
    await within(30, slow.closed, 'closing the connection of the unread body');
  });

  it('uploads keep the long request timeout: a PUT slower than the body timeout succeeds', async () => {
    const { token } = await server.client.signup();
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'slow.txt', permissionScope: 'user' },
    });
    const url = new URL(requested.body.putFileUrl);
    const socket = connect(Number(url.port), '127.0.0.1');
    socket.on('error', () => {});
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
        'Content-Type: text/plain\r\nContent-Length: 10\r\n\r\nhello',
    );
    await sleep(1500); // longer than the body timeout (1 s): the upload must still be waiting
    assert.equal(text, '', 'nothing answered while the upload is still coming');
    socket.write('world');
    await within(30, closed, 'the upload answer');
    assert.equal(statusOf(text), 200, text);
    assert.equal(bodyOf(text).sizeBytes, 10);
  });
});
