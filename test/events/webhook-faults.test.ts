import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { useTwoNodes } from '../support/two-nodes.ts';
import { startWebhookReceiver, waitUntil } from '../support/webhook-receiver.ts';

const env = {
  COFFER_WEBHOOK_ALLOW_PRIVATE: 'true',
  COFFER_WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1,1,1,1',
  COFFER_EVENT_DELIVERY_INTERVAL_MS: '20',
  COFFER_WEBHOOK_TIMEOUT_SECONDS: '5',
};

/** A service key of the process's project, made as an operator does (`coffer project key create`). */
async function createServiceKey(coffer: CofferProcess): Promise<string> {
  const name = `faults-${Math.random().toString(36).slice(2, 10)}`;
  const args = ['project', 'key', 'create', coffer.credentials.projectId, '--name', name, '--json'];
  const created = await runCli([...args, '--data-dir', coffer.dataDir], coffer.env);
  assert.equal(created.code, 0, created.stderr);
  return JSON.parse(created.stdout).key;
}

/** Webhooks are managed with a service key (issue 35); answers the webhook and the key. */
async function addWebhook(coffer: CofferProcess, url: string) {
  const serviceKey = await createServiceKey(coffer);
  const answer = await coffer.client.call('POST', '/api/v1/webhooks', {
    serviceKey,
    body: { url, events: ['file.*'] },
  });
  assert.equal(answer.status, 201, answer.text);
  return { ...(answer.body as { id: string; secret: string }), serviceKey };
}

/** Issue 22: at least once, through a kill -9, and once per event across two nodes. */
describe(`webhook delivery through faults (${currentStackName()} stack)`, () => {
  const started: CofferProcess[] = [];
  after(async () => {
    for (const coffer of started) await coffer.stop().catch(() => {});
  });

  it('kill -9 after the commit loses no delivery: the restarted server delivers it', async () => {
    const receiver = await startWebhookReceiver();
    let coffer = await startCofferProcess({ env });
    started.push(coffer);
    try {
      // The receiver is down (503): the event is committed and its delivery still pending.
      receiver.answerWith(() => 503);
      const webhook = await addWebhook(coffer, receiver.url);
      const { token } = await coffer.client.signup();
      const pending = await coffer.client.uploadFile(token, 'faults/pending.txt', 'pending');
      await waitUntil(async () => {
        const page = await coffer.client.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, {
          serviceKey: webhook.serviceKey,
        });
        return (
          page.body.deliveries.some((delivery: { attempts: number }) => delivery.attempts >= 1) || undefined
        );
      }, 'a failed attempt');
      // And one killed right after its verify answered, before anything was attempted, perhaps.
      const immediate = await coffer.client.uploadFile(token, 'faults/immediate.txt', 'immediate');
      await coffer.kill();
      receiver.answerWith(() => 200);
      coffer = await coffer.restart();
      started.push(coffer);
      const delivered = await waitUntil(() => {
        const ids = new Set(receiver.received.map((event) => event.data.fileId));
        return ids.has(pending._id) && ids.has(immediate._id) ? receiver.received : undefined;
      }, 'both deliveries after the restart');
      for (const event of delivered)
        new Webhook(webhook.secret).verify(event.body, event.headers as Record<string, string>);
    } finally {
      await receiver.close();
    }
  });

  describe('two nodes', {
    skip: currentStackName() === 'pg-s3' ? false : 'needs shared stores: runs in the PostgreSQL + S3 pass',
  }, () => {
    const nodes = useTwoNodes({ env });

    it('deliver each event exactly once, in order per file', async () => {
      const receiver = await startWebhookReceiver();
      try {
        const { nodeA, nodeB } = nodes;
        const webhook = await addWebhook(nodeA, receiver.url);
        const { token } = await nodeA.client.signup();
        const fileIds: string[] = [];
        for (let i = 0; i < 12; i++) {
          const node = i % 2 === 0 ? nodeA : nodeB;
          const file = await node.client.uploadFile(token, `nodes/${i}.txt`, `file ${i}`);
          fileIds.push(file._id);
          const moved = await node.client.call('PATCH', `/api/v1/file/${file._id}`, {
            token,
            body: { customData: { step: i } },
          });
          assert.equal(moved.status, 200, moved.text);
        }
        const expected = fileIds.length * 2;
        await waitUntil(
          () => (receiver.received.length >= expected ? true : undefined),
          `${expected} deliveries`,
        );
        // Every delivery done, each in one attempt: had both nodes taken one, it would count two.
        const deliveries = await waitUntil(async () => {
          const page = await nodeB.client.call('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, {
            serviceKey: webhook.serviceKey,
          });
          const all = page.body.deliveries as { status: string; attempts: number }[];
          return all.length === expected && all.every((delivery) => delivery.status === 'delivered')
            ? all
            : undefined;
        }, 'every delivery recorded');
        assert.ok(deliveries.every((delivery) => delivery.attempts === 1));
        const ids = receiver.received.map((event) => String(event.headers['webhook-id']));
        assert.equal(new Set(ids).size, ids.length, 'no event delivered twice');
        assert.equal(ids.length, expected);
        for (const fileId of fileIds) {
          const types = receiver.received
            .filter((event) => event.data.fileId === fileId)
            .map((event) => event.type);
          assert.deepEqual(types, ['file.uploaded', 'file.updated'], fileId);
        }
      } finally {
        await receiver.close();
      }
    });
  });
});
