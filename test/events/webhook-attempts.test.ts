import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../packages/client/src/api-types.ts';
import { startEventDelivery } from '../../src/start-event-delivery.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { quickWebhookEnv, waitUntil } from '../support/webhook-receiver.ts';

type Received = { headers: IncomingHttpHeaders; body: string };
/** The attempt as the OpenAPI document declares it (the SDK's generated types). */
type Attempt = components['schemas']['WebhookDeliveryAttempt'];

/** 1023 ASCII bytes, then a 2-byte character across the 1 KiB limit, then more. */
const longBody = `${'a'.repeat(1023)}é${'b'.repeat(500)}`;

/**
 * A receiver that answers each request as the next of `answers` says (the last one repeats),
 * keeping every request it was sent.
 */
async function startScriptedReceiver(answers: ((response: import('node:http').ServerResponse) => void)[]) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      (answers[received.length - 1] ?? answers.at(-1)!)(response);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Issue 43, item 7: a delivery lists each of its attempts, as Svix and Stripe show them. */
describe('webhook delivery attempts', () => {
  let server: TestServer;
  let delivery: { stop(): Promise<void> };
  let serviceKey: string;
  before(async () => {
    server = await startTestServer({}, quickWebhookEnv);
    delivery = startEventDelivery(server.services, { info() {}, warn() {} });
    serviceKey = await server.createServiceKey();
  });
  after(async () => {
    await delivery?.stop();
    await server?.stop();
  });

  const createWebhook = async (url: string) => {
    const created = await server.client.call('POST', '/api/v1/webhooks', {
      serviceKey,
      body: { url, events: ['file.uploaded'] },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; secret: string };
  };

  const listDeliveries = async (webhookId: string) => {
    const page = await server.client.call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { serviceKey });
    assert.equal(page.status, 200, page.text);
    return page.body.deliveries as { id: string; status: string; attempts: number; attemptLog: Attempt[] }[];
  };

  it('failed twice (a 500 with a body, then a socket destroyed mid-answer), then delivered: three attempts', async () => {
    const receiver = await startScriptedReceiver([
      (response) => response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down'),
      (response) => {
        // The status and part of a body promised longer, then the socket goes.
        response.writeHead(200, { 'content-length': '100' });
        response.write('half an ans', () => response.socket?.destroy());
      },
      (response) => response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(longBody),
    ]);
    try {
      const created = await createWebhook(receiver.url);
      const { token } = await server.client.signup();
      await server.client.uploadFile(token, 'attempts/a.txt', 'three tries');
      const [delivered] = await waitUntil(async () => {
        const deliveries = await listDeliveries(created.id);
        return deliveries[0]?.status === 'delivered' ? deliveries : undefined;
      }, 'the delivery to succeed');
      assert.equal(delivered!.attempts, 3);
      const log = delivered!.attemptLog;
      assert.deepEqual(
        log.map(({ attempt, statusCode, responseBody, responseBodyTruncated }) => ({
          attempt,
          statusCode,
          responseBody,
          responseBodyTruncated,
        })),
        [
          { attempt: 1, statusCode: 500, responseBody: 'receiver is down', responseBodyTruncated: false },
          { attempt: 2, statusCode: null, responseBody: null, responseBodyTruncated: false },
          // Cut at 1 KiB, before the character the limit fell in: no half of `é`.
          { attempt: 3, statusCode: 200, responseBody: 'a'.repeat(1023), responseBodyTruncated: true },
        ],
      );
      assert.equal(log[0]!.error, null);
      // Which of the two the client sees first depends on the kernel's timing; both say it.
      assert.match(log[1]!.error ?? '', /^(connection reset|the connection closed before the answer ended)$/);
      assert.equal(log[2]!.error, null);
      for (const attempt of log) {
        assert.ok(
          Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0,
          String(attempt.durationMs),
        );
        assert.ok(!Number.isNaN(Date.parse(attempt.at)));
      }
      assert.ok(
        Date.parse(log[0]!.at) < Date.parse(log[1]!.at) && Date.parse(log[1]!.at) < Date.parse(log[2]!.at),
      );
      // Each attempt was signed afresh and verifies with the stock library, the same webhook-id.
      assert.equal(receiver.received.length, 3);
      const verifier = new Webhook(created.secret);
      for (const request of receiver.received)
        verifier.verify(request.body, request.headers as Record<string, string>);
      assert.equal(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size, 1);
    } finally {
      await receiver.close();
    }
  });

  it('a delivery retried by hand past its schedule keeps as many attempts as the schedule allows, the latest', async () => {
    const receiver = await startScriptedReceiver([(response) => response.writeHead(204).end()]);
    try {
      const created = await createWebhook(receiver.url);
      const { token } = await server.client.signup();
      await server.client.uploadFile(token, 'attempts/b.txt', 'again and again');
      const attemptsReach = (count: number) =>
        waitUntil(async () => {
          const [first] = await listDeliveries(created.id);
          return first?.status === 'delivered' && first.attempts === count ? first : undefined;
        }, `attempt ${count}`);
      let current = await attemptsReach(1);
      // The schedule (1,1,1) allows four attempts; five are made, the log keeps the last four.
      for (let count = 2; count <= 5; count++) {
        const retried = await server.client.call(
          'POST',
          `/api/v1/webhooks/${created.id}/deliveries/${current.id}/retry`,
          { serviceKey },
        );
        assert.equal(retried.status, 202, retried.text);
        current = await attemptsReach(count);
      }
      assert.deepEqual(
        current.attemptLog.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.responseBody]),
        [
          [2, 204, ''],
          [3, 204, ''],
          [4, 204, ''],
          [5, 204, ''],
        ],
      );
    } finally {
      await receiver.close();
    }
  });

  it('a test delivery lists its one attempt', async () => {
    const receiver = await startScriptedReceiver([(response) => response.writeHead(202).end('queued')]);
    try {
      const created = await createWebhook(receiver.url);
      const tested = await server.client.call('POST', `/api/v1/webhooks/${created.id}/test`, {
        serviceKey,
      });
      assert.equal(tested.status, 200, tested.text);
      assert.deepEqual(
        tested.body.attemptLog.map((attempt: Attempt) => [
          attempt.attempt,
          attempt.statusCode,
          attempt.responseBody,
        ]),
        [[1, 202, 'queued']],
      );
      const [listed] = await listDeliveries(created.id);
      assert.deepEqual(listed!.attemptLog, tested.body.attemptLog);
    } finally {
      await receiver.close();
    }
  });

  // Runs last: the retention empties every finished delivery of this server.
  it("attempts go with their delivery: the webhook's removal and the retention (the foreign key's cascade)", async () => {
    const { db } = server.services.database;
    const attemptsOf = async (deliveryIds: string[]) =>
      (
        await db
          .selectFrom('webhook_delivery_attempts')
          .select('delivery_id')
          .where('delivery_id', 'in', deliveryIds)
          .execute()
      ).length;
    const receiver = await startScriptedReceiver([(response) => response.writeHead(200).end()]);
    try {
      const removed = await createWebhook(receiver.url);
      const tested = await server.client.call('POST', `/api/v1/webhooks/${removed.id}/test`, { serviceKey });
      assert.equal(tested.status, 200, tested.text);
      assert.equal(await attemptsOf([tested.body.id]), 1);
      const deleted = await server.client.call('DELETE', `/api/v1/webhooks/${removed.id}`, { serviceKey });
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(await attemptsOf([tested.body.id]), 0);
    } finally {
      await receiver.close();
    }
    const finished = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '!=', 'pending')
      .execute();
    const ids = finished.map((row) => row.id);
    assert.ok((await attemptsOf(ids)) >= 3, 'the earlier tests left attempts');
    // Everything is older than a minute from now: every finished delivery goes, and its attempts.
    await server.services.repositories.deliveries.deleteOlderThan(new Date(Date.now() + 60_000), 1000);
    assert.equal(await attemptsOf(ids), 0);
  });
});
