/**
 * Issue 44 item 5: a tus upload (5 MiB PATCHes, one after another, as tus clients send them)
 * against the one-shot PUT of the same bytes to what stores them: node:http writing to the same
 * disk on the embedded stack, the S3 server itself (a PUT through a link the AWS SDK presigns) on
 * PostgreSQL + S3.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from '../bench-context.ts';
import { resumableTransfer } from '../memory/resumable-transfer.ts';
import { measureCpu } from '../probes/process-cpu.ts';
import type { Measurement, PreparedScenario, Scenario, Side } from '../scenario.ts';
import { fillBytes } from '../seed/workload.ts';
import { onePutBaselines } from './data-plane-scenarios.ts';
import { deleteFileObjects } from './s3-sides.ts';
import { runTasks } from './sides.ts';

export const tusUpload: Scenario = {
  id: 'tus-upload',
  title: 'tus upload of a large file in 5 MiB PATCHes, vs one PUT of the same bytes to the store',
  unit: 'MiB/s',
  metric: 'rate',
  prepare: async (context: BenchContext): Promise<PreparedScenario> => {
    const workload = await context.workload();
    const size = context.options.largeBytes;
    const amount = context.options.largeRequests;
    const bytes = fillBytes(size);
    const file = path.join(context.workDir, `tus-${randomBytes(3).toString('hex')}.bin`);
    await writeFile(file, bytes);
    const coffer: Side = {
      label: 'coffer',
      run: async () => {
        const fileIds: string[] = [];
        const measured = await measureCpu(workload.server.url, async (): Promise<Measurement> => {
          const transfers = await runTasks(amount, 1, async () => {
            const sent = await resumableTransfer(
              workload,
              file,
              size,
              `tus/${randomBytes(4).toString('hex')}.bin`,
            );
            fileIds.push(sent.fileId);
            if (sent.status !== 200) throw new Error(`tus upload: ${sent.status} ${sent.text}`);
          });
          return { ...transfers, mibPerSecond: (transfers.requestsPerSecond * size) / 2 ** 20 };
        });
        await deleteFileObjects(context, workload, fileIds);
        return measured;
      },
    };
    const load = {
      connections: 1,
      amount,
      payloadBytes: size,
      request: {
        method: 'PUT' as const,
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      },
    };
    return { scenario: coffer, baselines: await onePutBaselines(context, workload, load) };
  },
};
