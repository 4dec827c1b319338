import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startEventDelivery } from '../../src/start-event-delivery.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { makeDeletesFinal } from '../support/final-deletes.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import {
  quickWebhookEnv,
  startWebhookReceiver as startReceiver,
  waitUntil as waitFor,
} from '../support/webhook-receiver.ts';

/** Issue 22: webhooks, verified with the stock `standardwebhooks` library, on both stacks. */
describe('webhooks', () => {
  let server: TestServer;
  let delivery: { stop(): Promise<void> };
  let token: string;
  /** Webhooks are managed with a service key (or an admin's token), never the app secret. */
  let serviceKey: string;
  const log = { info() {}, warn() {} };
  before(async () => {
    server = await startTestServer({}, quickWebhookEnv);
    delivery = startEventDelivery(server.services, log);
    await makeDeletesFinal(server);
    ({ token } = await server.client.signup());
    serviceKey = await server.createServiceKey();
  });
  after(async () => {
    await delivery?.stop();
    await server?.stop();
  });

  const createWebhook = async (url: string, events: string[] = ['file.*']) => {
    const answer = await server.client.call('POST', '/api/v1/webhooks', {
      serviceKey,
      body: { url, events, description: 'test' },
    });
    assert.equal(answer.status, 201, answer.text);
    assert.match(answer.body.secret, /^whsec_/);
    return answer.body as { id: string; secret: string };
  };

  it('delivers file.uploaded, file.shared and file.deleted in order, signed as Standard Webhooks says', async () => {
    const receiver = await startReceiver();
    try {
      const webhook = await createWebhook(receiver.url);
      const bob = await server.client.signup();
      const file = await server.client.uploadFile(token, 'events/a.txt', 'hello events');
      const shared = await server.client.call('POST', `/api/v1/file/${file._id}/acl/user/${bob.userId}`, {
        token,
      });
      assert.equal(shared.status, 200, shared.text);
      assert.equal((await server.client.call('DELETE', `/api/v1/file/${file._id}`, { token })).status, 204);
      const events = await waitFor(
        () => (receiver.received.length >= 3 ? receiver.received : undefined),
        'three deliveries',
      );
      assert.deepEqual(
        events.map((event) => event.type),
        ['file.uploaded', 'file.shared', 'file.deleted'],
      );
      const verifier = new Webhook(webhook.secret);
      for (const event of events) {
        // The stock verifier: it throws unless id, timestamp and body are what was signed.
        verifier.verify(event.body, event.headers as Record<string, string>);
        assert.match(String(event.headers['webhook-id']), /^evt_[0-9A-Z]{26}$/);
        assert.equal(event.data.fileId, file._id);
        assert.equal(event.data.filePath, 'events/a.txt');
      }
      assert.deepEqual(events[1]!.data.entry, { scope: 'user', identifier: bob.userId });
      // A signature over other bytes does not verify.
      assert.throws(() =>
        verifier.verify(`${events[0]!.body} `, events[0]!.headers as Record<string, string>),
      );
    } finally {
      await receiver.close();
    }
  });

  it('a receiver down, then up, gets every event with the same webhook-id; 410 disables the endpoint', async () => {
    const receiver = await startReceiver();
    try {
      let failures = 0;
      receiver.answerWith(() => (failures++ < 2 ? 503 : 200));
      const webhook = await createWebhook(receiver.url, ['file.uploaded']);
      const file = await server.client.uploadFile(token, 'events/retry.txt', 'retry me');
      const event = await waitFor(
        () => receiver.received.find((got) => got.data.fileId === file._id),
        'a retried delivery',
      );
      new Webhook(webhook.secret).verify(event.body, event.headers as Record<string, string>);
      // The receiver holds the event before its answer reaches the deliverer, which records it after.
      const listed = await waitFor(async () => {
        const page = await server.client.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, {
          serviceKey,
        });
        const [first] = page.body.deliveries;
        return first?.status === 'delivered' ? first : undefined;
      }, 'the delivery recorded as delivered');
      assert.equal(listed.attempts, 3);
      assert.equal(listed.eventId, event.headers['webhook-id']);

      receiver.answerWith(() => 410);
      await server.client.uploadFile(token, 'events/gone.txt', 'gone');
      const shown = await pollWebhook(webhook.id, (body) => body.enabled === false);
      assert.match(shown.disabledReason, /410/);
    } finally {
      await receiver.close();
    }
  });

  it('loopback targets are refused without COFFER_WEBHOOK_ALLOW_PRIVATE; management needs a service key or an admin', async () => {
    const guarded = await startTestServer();
    try {
      const key = await guarded.createServiceKey();
      const refused = await guarded.client.call('POST', '/api/v1/webhooks', {
        serviceKey: key,
        body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'VALIDATION_FAILED');
      // Issue 35: the app secret ships inside apps; alone it administers nothing, and beside a
      // plain user's token it is that user.
      const secretOnly = await guarded.client.call('POST', '/api/v1/webhooks', {
        body: { url: 'https://hooks.example.com/x', events: ['*'] },
      });
      assert.equal(secretOnly.status, 401, secretOnly.text);
      assert.equal(secretOnly.body.code, 'AUTH_REQUIRED');
      const plain = await guarded.client.signup();
      const secretAndUser = await guarded.client.call('GET', '/api/v1/webhooks', { token: plain.token });
      assert.equal(secretAndUser.status, 403, secretAndUser.text);
      assert.equal(secretAndUser.body.code, 'ACCESS_DENIED');
      const origin = 'https://app.example';
      const project = await guarded.createProject('hooks-origin', [origin]);
      const user = await project.signup();
      const asUser = await project.call('GET', '/api/v1/webhooks', {
        anonymous: true,
        token: user.token,
        headers: { 'sb-app-id': project.credentials.appId, origin },
      });
      assert.equal(asUser.status, 403);
      assert.equal(asUser.body.code, 'ACCESS_DENIED');
      await guarded.services.repositories.users.setRole(project.credentials.projectId, user.userId, 'admin');
      const asAdmin = await project.call('GET', '/api/v1/webhooks', {
        anonymous: true,
        token: user.token,
        headers: { 'sb-app-id': project.credentials.appId, origin },
      });
      assert.equal(asAdmin.status, 200, asAdmin.text);
      // A service key is refused from a browser, even from an allowed origin.
      const projectKey = await guarded.createServiceKey(project.credentials.projectId);
      const keyFromBrowser = await project.call('GET', '/api/v1/webhooks', {
        serviceKey: projectKey,
        headers: { origin },
      });
      assert.equal(keyFromBrowser.status, 403, keyFromBrowser.text);
      assert.equal(keyFromBrowser.body.code, 'ORIGIN_NOT_ALLOWED');
      const keyFromServer = await project.call('GET', '/api/v1/webhooks', { serviceKey: projectKey });
      assert.equal(keyFromServer.status, 200, keyFromServer.text);
    } finally {
      await guarded.stop();
    }
  });

  it('rotating the secret: both secrets sign for a while; test deliveries are answered at once', async () => {
    const receiver = await startReceiver();
    try {
      const webhook = await createWebhook(receiver.url, ['*']);
      const rotated = await server.client.call('POST', `/api/v1/webhooks/${webhook.id}/rotate-secret`, {
        serviceKey,
      });
      assert.equal(rotated.status, 200, rotated.text);
      assert.notEqual(rotated.body.secret, webhook.secret);
      const tested = await server.client.call('POST', `/api/v1/webhooks/${webhook.id}/test`, { serviceKey });
      assert.equal(tested.status, 200, tested.text);
      assert.equal(tested.body.status, 'delivered');
      const event = receiver.received.find((got) => got.type === 'webhook.test')!;
      for (const secret of [webhook.secret, rotated.body.secret as string])
        new Webhook(secret).verify(event.body, event.headers as Record<string, string>);
      const listed = await server.client.call('GET', '/api/v1/webhooks', { serviceKey });
      assert.ok(listed.body.webhooks.every((hook: Record<string, unknown>) => !('secret' in hook)));
    } finally {
      await receiver.close();
    }
  });

  async function pollWebhook(id: string, done: (body: ApiResponse['body']) => boolean) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await server.client.call('GET', `/api/v1/webhooks/${id}`, { serviceKey });
      if (done(answer.body)) return answer.body;
      if (Date.now() > deadline) throw new Error(`webhook still ${answer.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});
