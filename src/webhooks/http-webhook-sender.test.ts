import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { type AddressInfo, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type LocalReceiver, startLocalReceiver } from '../../test/support/local-receiver.ts';
import { newWebhookSecret } from '../domain/events/webhook-secret.ts';
import type { WebhookAttempt } from '../domain/events/webhook-sender.ts';
import { newId } from '../domain/ids.ts';
import { AppError } from '../errors/app-error.ts';
import { HttpWebhookSender } from './http-webhook-sender.ts';

function attemptTo(url: string, secrets: string[] = [newWebhookSecret()]): WebhookAttempt {
  const body = JSON.stringify({
    type: 'file.created',
    timestamp: new Date().toISOString(),
    data: { fileId: newId(), filePath: 'reports/été ✓.pdf' },
  });
  return { url, secrets, eventId: `msg_${newId()}`, attemptedAt: new Date(), body };
}

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
    assert.deepEqual({ ...outcome, durationMs: 0 }, { kind: 'gone', status: 410, durationMs: 0 });
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

describe('HttpWebhookSender, guarding private networks (allowPrivate false)', () => {
  const sender = new HttpWebhookSender({ allowPrivate: false, timeoutSeconds: 1 });
  let loopback4: LocalReceiver;
  let loopback6: LocalReceiver;
  before(async () => {
    loopback4 = await startLocalReceiver((_request, response) => response.writeHead(200).end());
    const port = loopback4.port;
    loopback6 = await startLocalReceiver((_request, response) => response.writeHead(200).end(), {
      host: '::1',
      port,
    });
  });
  after(() => Promise.all([loopback4.close(), loopback6.close()]));
  const connectionCount = () => loopback4.connectionCount() + loopback6.connectionCount();

  const refusedHosts: Array<[string, RegExp]> = [
    ['127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['localhost', /(127\.0\.0\.1|::1) is a loopback address/], // a name: refused on the addresses the lookup answers
    ['[::1]', /::1 is a loopback address/],
    ['10.0.0.1', /10\.0\.0\.1 is a private address/],
    ['169.254.169.254', /169\.254\.169\.254 is a link-local address/],
    ['[::ffff:127.0.0.1]', /::ffff:7f00:1 is a loopback address/],
    ['0.0.0.0', /0\.0\.0\.0 is an unspecified address/],
    ['100.64.0.1', /100\.64\.0\.1 is a carrier-grade NAT address/],
    ['[fd00::1]', /fd00::1 is a private \(unique local\) address/],
  ];
  for (const [host, reason] of refusedHosts) {
    it(`refuses ${host} at creation and at send, without connecting`, async () => {
      const url = `http://${host}:${loopback4.port}/hook`;
      await assert.rejects(sender.assertAllowedTarget(url), validationFailure(reason));
      const outcome = await sender.send(attemptTo(url));
      assert.equal(outcome.kind, 'failed');
      assert.match(outcome.kind === 'failed' ? outcome.error : '', new RegExp(`^refused: ${reason.source}`));
      assert.equal(connectionCount(), 0);
    });
  }

  it('refuses at connect time a name that resolved to a public address at creation (DNS rebinding)', async () => {
    const answers = ['1.1.1.1', '127.0.0.1'];
    const rebinding = new HttpWebhookSender({
      allowPrivate: false,
      timeoutSeconds: 1,
      dnsLookup: answering(answers),
    });
    const url = `http://rebind.test:${loopback4.port}/hook`;
    await rebinding.assertAllowedTarget(url);
    const outcome = await rebinding.send(attemptTo(url));
    assert.equal(outcome.kind === 'failed' && outcome.error, 'refused: 127.0.0.1 is a loopback address');
    assert.equal(connectionCount(), 0);
  });

  it('refuses a name if any of its addresses is private', async () => {
    const mixed = new HttpWebhookSender({
      allowPrivate: false,
      timeoutSeconds: 1,
      dnsLookup: answering([['1.1.1.1', '10.0.0.1']]),
    });
    const url = `http://mixed.test:${loopback4.port}/hook`;
    await assert.rejects(
      mixed.assertAllowedTarget(url),
      validationFailure(/10\.0\.0\.1 is a private address/),
    );
  });

  it('refuses other schemes, credentials in the URL, bad ports and names that do not resolve', async () => {
    const permissive = new HttpWebhookSender({ allowPrivate: true, timeoutSeconds: 1 });
    const cases: Array<[HttpWebhookSender, string, RegExp]> = [
      [sender, `ftp://1.1.1.1/hook`, /the scheme ftp: is not http: or https:/],
      [permissive, `ftp://127.0.0.1:${loopback4.port}/hook`, /the scheme ftp: is not http: or https:/],
      [sender, 'http://u:p@1.1.1.1/hook', /credentials/],
      [permissive, `http://u:p@127.0.0.1:${loopback4.port}/hook`, /credentials/],
      [sender, 'http://1.1.1.1:25/hook', /port 25 belongs to a service that is not HTTP/],
      [sender, 'not a url', /not a valid URL/],
    ];
    for (const [guard, url, reason] of cases) {
      await assert.rejects(guard.assertAllowedTarget(url), validationFailure(reason), url);
      const outcome = await guard.send(attemptTo(url));
      assert.match(outcome.kind === 'failed' ? outcome.error : '', reason, url);
    }
    const unresolvable = new HttpWebhookSender({
      allowPrivate: false,
      timeoutSeconds: 1,
      dnsLookup: notFound,
    });
    await assert.rejects(
      unresolvable.assertAllowedTarget('https://nowhere.test/hook'),
      validationFailure(/nowhere\.test could not be resolved \(host not found\)/),
    );
    assert.equal(connectionCount(), 0);
  });

  it('allows public addresses on any port but the bad ones', async () => {
    await sender.assertAllowedTarget('https://1.1.1.1/hook');
    await sender.assertAllowedTarget('http://8.8.8.8:8080/hook?x=1');
    await sender.assertAllowedTarget('https://[2606:4700:4700::1111]:8443/hook');
    const named = new HttpWebhookSender({
      allowPrivate: false,
      timeoutSeconds: 1,
      dnsLookup: answering([['1.1.1.1']]),
    });
    await named.assertAllowedTarget('https://hooks.example.test/in');
  });
});

/** A stand-in for DNS: each call answers the next entry of `answers`, the last one forever after. */
function answering(answers: Array<string | string[]>): LookupFunction {
  let calls = 0;
  return (_hostname, _options, callback) => {
    const answer = answers[Math.min(calls++, answers.length - 1)] ?? [];
    const addresses = [answer].flat().map((address) => ({ address, family: isIP(address) }));
    callback(null, addresses);
  };
}

const notFound: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');

function validationFailure(reason: RegExp) {
  return (error: unknown) =>
    error instanceof AppError && error.code === 'VALIDATION_FAILED' && reason.test(error.message);
}

/** Writes `sizeBytes` in 64 KiB chunks, with backpressure, until done or the peer hangs up. */
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
