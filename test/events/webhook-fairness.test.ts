import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEventDelivery } from '../../src/start-event-delivery.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type LocalReceiver, startLocalReceiver } from '../support/local-receiver.ts';
import { currentStackName } from '../support/test-stack.ts';
import { startWebhookReceiver, waitUntil } from '../support/webhook-receiver.ts';

const queuedEvents = 100;

/** Webhooks are managed with a service key of their project (issue 35). */
async function addWebhook(project: ApiClient, serviceKey: string, url: string): Promise<string> {
  const answer = await project.call('POST', '/api/v1/webhooks', {
    serviceKey,
    body: { url, events: ['file.*'] },
  });
  assert.equal(answer.status, 201, answer.text);
  return answer.body.id as string;
}

/**
 * Issue 35, item 2: deliveries are scheduled per endpoint, so an endpoint that accepts the
 * connection and never answers delays only its own deliveries. Its attempts here outlast the
 * test (a 120 s time limit): everything else must be delivered while they still hang.
 */
describe(`webhook delivery beside a tarpit endpoint (${currentStackName()} stack)`, () => {
  let server: TestServer;
  let delivery: { stop(): Promise<void> } | undefined;
  let tarpit: LocalReceiver;
  const receivers: { close(): Promise<void> }[] = [];
  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_WEBHOOK_ALLOW_PRIVATE: 'true',
        COFFER_EVENT_DELIVERY_INTERVAL_MS: '20',
        COFFER_WEBHOOK_TIMEOUT_SECONDS: '120',
      },
    );
    // Accepts, reads the request, never answers.
    tarpit = await startLocalReceiver(() => {});
  });
  after(async () => {
    await delivery?.stop();
    await tarpit?.close();
    for (const receiver of receivers) await receiver.close();
    await server?.stop();
  });

  it("another project's endpoint and the same project's other endpoint are delivered while the tarpit's attempts still hang", async () => {
    const projectA = server.client;
    const projectB = await server.createProject('webhooks-b');
    const sameProject = await startWebhookReceiver();
    const otherProject = await startWebhookReceiver();
    receivers.push(sameProject, otherProject);
    const keyA = await server.createServiceKey(projectA.credentials.projectId);
    const keyB = await server.createServiceKey(projectB.credentials.projectId);
    const tarpitId = await addWebhook(projectA, keyA, tarpit.url());
    await addWebhook(projectA, keyA, sameProject.url);
    await addWebhook(projectB, keyB, otherProject.url);
    const a = await projectA.signup();
    const b = await projectB.signup();

    // A's 100 events are queued before the deliverer starts, B's one after them.
    for (let start = 0; start < queuedEvents; start += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          projectA.uploadFile(a.token, `tarpit/${start + i}.txt`, `event ${start + i}`),
        ),
      );
    const bFile = await projectB.uploadFile(b.token, 'fair/b.txt', 'b');
    delivery = startEventDelivery(server.services, { info() {}, warn() {} });

    const got = await waitUntil(
      () => otherProject.received.find((event) => event.data.fileId === bFile._id),
      "project B's delivery",
      30_000,
    );
    assert.equal(got.type, 'file.uploaded');
    await waitUntil(
      () => (sameProject.received.length >= queuedEvents ? true : undefined),
      "every delivery to project A's other endpoint",
    );
    // The tarpit holds its own slots (COFFER_WEBHOOK_CONCURRENCY_PER_ENDPOINT, 2), no more,
    // and none of its attempts has ended: nothing above waited for one to time out.
    await waitUntil(() => (tarpit.requests.length >= 2 ? true : undefined), "the tarpit's two attempts");
    assert.equal(tarpit.connectionCount(), 2);
    assert.equal(tarpit.requests.length, 2);
    const listed = await projectA.call('GET', `/api/v1/webhooks/${tarpitId}/deliveries`, {
      serviceKey: keyA,
    });
    assert.equal(listed.status, 200, listed.text);
    const deliveries = listed.body.deliveries as { status: string; attempts: number }[];
    assert.ok(deliveries.length > 0);
    assert.ok(
      deliveries.every((row) => row.status === 'pending' && row.attempts === 0),
      'no tarpit attempt has ended',
    );

    // A retry asked for while its attempt hangs leaves the attempt its lease: the delivery is
    // not attempted twice at once, and the endpoint gets no third slot. (B's next delivery
    // shows the deliverer has taken due work since.)
    // Every one, the two in flight (the oldest: the last page) among them.
    for (let cursor = ''; ; ) {
      const page = await projectA.call('GET', `/api/v1/webhooks/${tarpitId}/deliveries${cursor}`, {
        serviceKey: keyA,
      });
      for (const row of page.body.deliveries as { id: string }[]) {
        const retried = await projectA.call(
          'POST',
          `/api/v1/webhooks/${tarpitId}/deliveries/${row.id}/retry`,
          { serviceKey: keyA },
        );
        assert.equal(retried.status, 202, retried.text);
      }
      if (page.body.nextCursor === null) break;
      cursor = `?cursor=${page.body.nextCursor}`;
    }
    const later = await projectB.uploadFile(b.token, 'fair/b-later.txt', 'b later');
    await waitUntil(
      () => otherProject.received.find((event) => event.data.fileId === later._id),
      "project B's later delivery",
      30_000,
    );
    assert.equal(tarpit.connectionCount(), 2);
  });
});
