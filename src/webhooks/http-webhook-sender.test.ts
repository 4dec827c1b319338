import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type LocalReceiver, startLocalReceiver } from '../../test/support/local-receiver.ts';
import { answering, attemptTo } from '../../test/support/webhook-attempt.ts';
import { newWebhookSecret } from '../domain/events/webhook-secret.ts';
import { HttpWebhookSender } from './http-webhook-sender.ts';

describe('HttpWebhookSender, delivering (allowPrivate)', () => {
  const sender = new HttpWebhookSender({ allowPrivate: true, timeoutSeconds: 1 });
  const receivers: LocalReceiver[] = [];
  const receive = async (...args: Parameters<typeof startLocalReceiver>) => {
    const receiver = await startLocalReceiver(...args);
    receivers.push(receiver);
    return receiver;
  };
  after(() => Promise.all(receivers.map((receiver) => receiver.close())));

  it('makes secrets in the whsec_ form, from 32 random bytes', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(newWebhookSecret(), secret);
  });

  it('signs with every secret so the stock verifier accepts either, and sends the body byte for byte', async () => {
    const receiver = await receive((_request, response) => response.writeHead(204).end());
    const secrets = [newWebhookSecret(), newWebhookSecret()];
    const attempt = attemptTo(receiver.url(), secrets);
    const outcome = await sender.send(attempt);
    assert.equal(outcome.kind, 'delivered');
    assert.equal(outcome.kind === 'delivered' && outcome.status, 204);
    const [received] = receiver.requests;
    assert.ok(received);
    assert.deepEqual(received.body, Buffer.from(attempt.body, 'utf8'));
    const headers = received.headers as Record<string, string>;
    assert.equal(headers['webhook-id'], attempt.eventId);
    assert.equal(headers['webhook-timestamp'], String(Math.floor(attempt.attemptedAt.getTime() / 1000)));
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['user-agent'], 'Coffer-Webhooks/1');
    assert.equal(headers['webhook-signature']?.split(' ').length, 2);
    for (const secret of secrets) {
      assert.deepEqual(
        new Webhook(secret).verify(received.body.toString('utf8'), headers),
        JSON.parse(attempt.body),
      );
    }
    assert.throws(() => new Webhook(newWebhookSecret()).verify(received.body.toString('utf8'), headers));
  });

  it('connects to the address that the lookup answered, and sends the host name', async () => {
    const receiver = await receive((_request, response) => response.writeHead(200).end('ok'));
    const lookup = answering(['127.0.0.1']);
    const resolving = new HttpWebhookSender({ allowPrivate: true, timeoutSeconds: 1, dnsLookup: lookup });
    const outcome = await resolving.send(attemptTo(`http://receiver.test:${receiver.port}/hook`));
    assert.equal(outcome.kind, 'delivered');
    assert.equal(receiver.requests[0]?.headers.host, `receiver.test:${receiver.port}`);
  });

  it('answers 410 as gone', async () => {
    const receiver = await receive((_request, response) => response.writeHead(410).end('gone'));
    const outcome = await sender.send(attemptTo(receiver.url()));
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      { kind: 'gone', status: 410, durationMs: 0, responseBody: { text: 'gone', truncated: false } },
    );
  });

  it('fails a redirect without following it', async () => {
    const receiver = await receive((_request, response) =>
      response.writeHead(302, { location: receiver.url('/elsewhere') }).end(),
    );
    const outcome = await sender.send(attemptTo(receiver.url('/hook')));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && outcome.status, 302);
    assert.match(
      outcome.kind === 'failed' ? outcome.error : '',
      /HTTP 302 \(redirect to .*\/elsewhere not followed\)/,
    );
    assert.deepEqual(
      receiver.requests.map((request) => request.path),
      ['/hook'],
    );
    assert.equal(receiver.connectionCount(), 1);
  });

  it('fails a 503 with its Retry-After and an excerpt of its body', async () => {
    const receiver = await receive((_request, response) =>
      response.writeHead(503, { 'retry-after': '120' }).end(`busy\r\n${'z'.repeat(4000)}`),
    );
    const outcome = await sender.send(attemptTo(receiver.url()));
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      {
        kind: 'failed',
        status: 503,
        error: `HTTP 503: busy ${'z'.repeat(512 - 6)}`,
        retryAfterSeconds: 120,
        durationMs: 0,
        // The attempt's body head: 1 KiB of it, as text, control characters kept.
        responseBody: { text: `busy\r\n${'z'.repeat(1024 - 6)}`, truncated: true },
      },
    );
  });

  it('fails a receiver that never answers within the timeout, and hangs up on it', async () => {
    const requestClosed = Promise.withResolvers<void>();
    const receiver = await receive((request) => request.socket.on('close', () => requestClosed.resolve()));
    const outcome = await sender.send(attemptTo(receiver.url()));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && outcome.error, 'timed out after 1 s');
    assert.ok(outcome.durationMs >= 900, `durationMs ${outcome.durationMs}`);
    await requestClosed.promise;
  });

  it('fails an answer whose body is still coming at the deadline', async () => {
    const receiver = await receive((_request, response) => response.writeHead(200).write('{"ok":'));
    const outcome = await sender.send(attemptTo(receiver.url()));
    assert.equal(outcome.kind === 'failed' && outcome.error, 'timed out after 1 s');
  });

  it('reads at most maxResponseBytes of a 10 MB answer, then hangs up', async () => {
    const answerClosed = Promise.withResolvers<boolean>();
    const receiver = await receive((_request, response) => {
      response.on('close', () => answerClosed.resolve(response.writableFinished));
      response.writeHead(200, { 'content-length': 10 * 1024 * 1024 });
      writeBytes(response, 10 * 1024 * 1024);
    });
    const small = new HttpWebhookSender({ allowPrivate: true, timeoutSeconds: 5, maxResponseBytes: 1024 });
    const outcome = await small.send(attemptTo(receiver.url()));
    assert.equal(outcome.kind, 'delivered');
    assert.equal(
      await answerClosed.promise,
      false,
      'the receiver finished writing 10 MB: the sender read it all',
    );
  });

  it('fails a refused connection', async () => {
    const port = await closedPort();
    const outcome = await sender.send(attemptTo(`http://127.0.0.1:${port}/hook`));
    assert.equal(outcome.kind === 'failed' && outcome.error, 'connection refused');
  });

  it("rejects with the caller's abort, and hangs up", async () => {
    const controller = new AbortController();
    const requestClosed = Promise.withResolvers<void>();
    const receiver = await receive((request) => {
      request.socket.on('close', () => requestClosed.resolve());
      controller.abort(new Error('shutting down'));
    });
    await assert.rejects(sender.send(attemptTo(receiver.url()), controller.signal), /shutting down/);
    await requestClosed.promise;
    await assert.rejects(sender.send(attemptTo(receiver.url()), controller.signal), /shutting down/);
    assert.equal(receiver.connectionCount(), 1);
  });

  it('fails an attempt whose secret is not a whsec_ key, without connecting', async () => {
    const receiver = await receive((_request, response) => response.writeHead(200).end());
    const outcome = await sender.send(attemptTo(receiver.url(), ['whsec_']));
    assert.match(outcome.kind === 'failed' ? outcome.error : '', /^cannot sign: /);
    assert.equal(receiver.connectionCount(), 0);
  });
});

function writeBytes(response: http.ServerResponse, sizeBytes: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const chunks = function* () {
    for (let sent = 0; sent < sizeBytes; sent += chunk.length) yield chunk;
  };
  pipeline(Readable.from(chunks()), response).catch(() => {});
}

async function closedPort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
