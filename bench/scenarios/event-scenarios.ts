/** Issue 22's row: an upload's verify with three webhooks configured, against one with none. */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchContext } from '../bench-context.ts';
import { runLoad } from '../run-load.ts';
import type { PreparedScenario, Scenario, Side } from '../scenario.ts';
import { createServiceKey, seedWorkload, uploadPool, type Workload } from '../seed/workload.ts';
import { fromPool } from './sides.ts';

const json = { 'content-type': 'application/json' };

/** Verifies of fresh uploads, a pool per run filled before the timing (as the verify scenario). */
function verifySide(label: string, workload: Workload, amount: number): Side {
  const toRequest = (file: { fileId: string; etag: string }) => ({
    path: `/api/v1/file/${file.fileId}/verify`,
    body: JSON.stringify({ etag: file.etag }),
  });
  return {
    label,
    run: async () => {
      const pool = await uploadPool(workload, amount, `verify/${randomBytes(3).toString('hex')}`);
      return runLoad({
        url: workload.server.url,
        request: { method: 'POST', headers: { ...workload.headers, ...json } },
        nextRequest: fromPool(pool, toRequest),
        connections: 10,
        amount,
      });
    },
  };
}

/** A receiver in the bench's process that accepts every delivery (stopped with the run). */
async function startReceiver(context: BenchContext): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  context.onClose(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

export const verifyWithWebhooks: Scenario = {
  id: 'verify-webhooks',
  title: 'POST /api/v1/file/:id/verify with 3 webhooks (the event is one insert in its transaction)',
  unit: 'req/s',
  metric: 'rate',
  // Issue 22: at least 0.9× the verify of a project without webhooks.
  target: 0.9,
  prepare: async (context): Promise<PreparedScenario> => {
    const amount = context.options.poolRequests;
    const server = await context.startCoffer('webhooks', { env: { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const withHooks = await seedWorkload(server, 'webhooks');
    const url = await startReceiver(context);
    const serviceKey = await createServiceKey(server, 'bench-webhooks');
    for (const events of [['file.*'], ['*'], ['file.uploaded']]) {
      const answer = await withHooks.api.call('POST', '/api/v1/webhooks', {
        serviceKey,
        body: { url, events },
      });
      if (answer.status !== 201) throw new Error(`webhook: ${answer.status} ${answer.text}`);
    }
    const plain = await seedWorkload(await context.startCoffer('no-webhooks'), 'plain');
    return {
      scenario: verifySide('coffer', withHooks, amount),
      baselines: [verifySide('no webhooks', plain, amount)],
    };
  },
};
