import assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type LocalReceiver, startLocalReceiver } from '../../test/support/local-receiver.ts';
import { answering, attemptTo } from '../../test/support/webhook-attempt.ts';
import { AppError } from '../errors/app-error.ts';
import { HttpWebhookSender } from './http-webhook-sender.ts';

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

const notFound: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');

function validationFailure(reason: RegExp) {
  return (error: unknown) =>
    error instanceof AppError && error.code === 'VALIDATION_FAILED' && reason.test(error.message);
}

/** Writes `sizeBytes` in 64 KiB chunks, with backpressure, until done or the peer hangs up. */
