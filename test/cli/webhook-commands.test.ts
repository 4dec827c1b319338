import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type LocalReceiver, startLocalReceiver } from '../support/local-receiver.ts';

/** Waits until `read` answers something other than undefined (a delivery is asynchronous). */
async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(50);
  }
}

// Issue 22 from the command line: `coffer webhook …` and `coffer audit` work on the stores, as
// every admin command, while `coffer serve` delivers and records on the same data.
describe('coffer webhook add | list | show | deliveries | retry | rm, and coffer audit', () => {
  let coffer: CofferProcess;
  let receiver: LocalReceiver;
  const allowPrivate = { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' };
  before(async () => {
    receiver = await startLocalReceiver((_request, response) => response.writeHead(204).end());
    coffer = await startCofferProcess({
      env: { ...allowPrivate, COFFER_EVENT_DELIVERY_INTERVAL_MS: '20' },
    });
  });
  after(async () => {
    await coffer?.stop();
    await receiver?.close();
  });
  const cli = (args: string[], env: Record<string, string> = allowPrivate) =>
    runCli([...args, '--data-dir', coffer.dataDir], { ...coffer.env, ...env });
  const json = async (...args: string[]) => {
    const result = await cli([...args, '--json']);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };

  it('add refuses a loopback URL unless COFFER_WEBHOOK_ALLOW_PRIVATE says yes, as the server does', async () => {
    const refused = await cli(['webhook', 'add', 'default', receiver.url(), '--json'], {});
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(JSON.parse(refused.stdout).code, 'VALIDATION_FAILED');
    assert.deepEqual((await json('webhook', 'list', 'default')).webhooks, []);
  });

  it('adds an endpoint (the secret once), lists and shows it, delivers, retries, and removes it', async () => {
    const added = await json(
      'webhook',
      'add',
      'default',
      receiver.url(),
      '--events',
      'file.*,user.login',
      '--description',
      'from the cli',
    );
    assert.match(added.secret, /^whsec_/);
    assert.deepEqual(added.events, ['file.*', 'user.login']);
    assert.equal(added.description, 'from the cli');
    assert.equal(added.enabled, true);

    const listed = await json('webhook', 'list', coffer.credentials.projectId);
    assert.deepEqual(
      listed.webhooks.map((hook: { id: string }) => hook.id),
      [added.id],
    );
    const { secret, ...view } = added;
    assert.deepEqual(listed.webhooks[0], view, 'the list never shows the secret');
    assert.deepEqual(await json('webhook', 'show', 'default', added.id), view);
    const text = await cli(['webhook', 'list', 'default']);
    assert.match(
      text.stdout,
      new RegExp(`^${added.id}  enabled  ${receiver.url()}  file\\.\\*,user\\.login$`, 'm'),
    );
    assert.doesNotMatch(text.stdout + (await cli(['webhook', 'show', 'default', added.id])).stdout, /whsec_/);

    // The server delivers what happens after; the receiver verifies it with the printed secret.
    const { token } = await coffer.client.signup();
    const file = await coffer.client.uploadFile(token, 'cli/hooked.txt', 'hooked');
    const uploaded = await waitFor(
      async () =>
        receiver.requests.find((request) => JSON.parse(request.body.toString()).type === 'file.uploaded'),
      'the file.uploaded delivery',
    );
    const body = uploaded.body.toString();
    new Webhook(secret).verify(body, uploaded.headers as Record<string, string>);
    assert.equal(JSON.parse(body).data.fileId, file._id);

    const delivered = await waitFor(async () => {
      const { deliveries } = await json('webhook', 'deliveries', 'default', added.id);
      const found = deliveries.find(
        (delivery: { eventId: string }) => delivery.eventId === uploaded.headers['webhook-id'],
      );
      return found?.status === 'delivered' ? found : undefined;
    }, 'the delivery marked delivered');
    assert.deepEqual(
      [delivered.eventType, delivered.attempts, delivered.lastStatus],
      ['file.uploaded', 1, 204],
    );
    const page = await json('webhook', 'deliveries', 'default', added.id, '--cursor', delivered.id);
    assert.ok(
      page.deliveries.every((delivery: { id: string }) => delivery.id < delivered.id),
      'older ones only',
    );
    assert.match(
      (await cli(['webhook', 'deliveries', 'default', added.id])).stdout,
      /file\.uploaded {2}delivered {2}attempts 1 {2}last 204/,
    );

    // A retry sends the same event again, under the same webhook-id.
    const retried = await json('webhook', 'retry', 'default', added.id, delivered.id);
    assert.deepEqual(retried, { deliveryId: delivered.id, retried: true });
    const again = await waitFor(async () => {
      const same = receiver.requests.filter(
        (request) => request.headers['webhook-id'] === uploaded.headers['webhook-id'],
      );
      return same.length === 2 ? same[1] : undefined;
    }, 'the retried delivery');
    assert.equal(again.body.toString(), body, 'the same bytes');
    const twice = await waitFor(async () => {
      const { deliveries } = await json('webhook', 'deliveries', 'default', added.id);
      const found = deliveries.find((delivery: { id: string }) => delivery.id === delivered.id);
      return found.attempts === 2 && found.status === 'delivered' ? found : undefined;
    }, 'the second attempt recorded');
    // Each attempt is listed (issue 43, item 7): in --json, and one indented line each in text.
    assert.deepEqual(
      twice.attemptLog.map((attempt: { attempt: number; statusCode: number; error: null }) => [
        attempt.attempt,
        attempt.statusCode,
        attempt.error,
      ]),
      [
        [1, 204, null],
        [2, 204, null],
      ],
    );
    const attemptLines = (await cli(['webhook', 'deliveries', 'default', added.id])).stdout;
    for (const number of [1, 2])
      assert.match(attemptLines, new RegExp(`^ {4}#${number} {2}\\d{4}-\\S+Z {2}204 {2}\\d+ ms$`, 'm'));

    const removed = await json('webhook', 'rm', 'default', added.id);
    assert.deepEqual(removed, { webhookId: added.id, deleted: true });
    assert.deepEqual((await json('webhook', 'list', 'default')).webhooks, []);
    const gone = await cli(['webhook', 'show', 'default', added.id, '--json']);
    assert.equal(gone.code, 1, gone.stderr);
    assert.equal(JSON.parse(gone.stdout).code, 'NOT_FOUND');
  });

  it('audit prints who did what, with the filters of GET /api/v1/audit', async () => {
    const alice = await coffer.client.signup();
    const bob = await coffer.client.signup();
    const file = await coffer.client.uploadFile(alice.token, 'cli/audited.txt', 'audited');
    const shared = await coffer.client.call('POST', `/api/v1/file/${file._id}/acl/user/${bob.userId}`, {
      token: alice.token,
    });
    assert.equal(shared.status, 200, shared.text);

    const page = await json('audit', 'default', '--file', file._id);
    assert.deepEqual(
      page.events.map((event: { type: string }) => event.type),
      ['file.shared', 'file.uploaded'],
    );
    assert.equal(page.nextCursor, null);
    const [share] = page.events;
    assert.deepEqual([share.actor.kind, share.actor.id, share.actor.ip], ['user', alice.userId, '127.0.0.1']);
    assert.deepEqual(share.data.entry, { scope: 'user', identifier: bob.userId });

    const byType = await json('audit', 'default', '--type', 'file.shared', '--actor', alice.userId);
    assert.deepEqual(
      byType.events.map((event: { id: string }) => event.id),
      [share.id],
    );
    const window = await json(
      'audit',
      'default',
      '--file',
      file._id,
      '--from',
      share.timestamp,
      '--type',
      'file.shared',
    );
    assert.deepEqual(
      window.events.map((event: { id: string }) => event.id),
      [share.id],
    );
    const text = await cli(['audit', 'default', '--file', file._id]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(`file\\.shared  user:${alice.userId}  127\\.0\\.0\\.1  file ${file._id}`),
    );

    const wrong = await cli(['audit', 'default', '--from', 'last tuesday', '--json']);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(JSON.parse(wrong.stdout).message, /from must be an ISO 8601/);
  });
});
