/**
 * The control plane on PostgreSQL, with blobs on disk and on S3, against the same on the embedded
 * stack (SQLite, blobs on disk): each on a server of its own, seeded alike, in the same run. Part
 * of `--stack pg-s3` runs (they need PostgreSQL and the S3 server: Ceph RGW where installed).
 * A PostgreSQL server's CPU counts its cluster's backends (bench-context.ts).
 */
import { randomBytes } from 'node:crypto';
import type { BenchContext } from '../bench-context.ts';
import type { StackName } from '../processes/bench-stores.ts';
import { type LoadOptions, type LoadRequest, runLoad } from '../run-load.ts';
import type { Scenario, Side } from '../scenario.ts';
import { seedWorkload, uploadPool, type Workload } from '../seed/workload.ts';
import { hotPathLoad } from './hot-path-scenarios.ts';
import { loadSide } from './sides.ts';

/** One SQLite baseline server per run, shared by both scenarios. */
const sqliteWorkloads = new WeakMap<BenchContext, Promise<Workload>>();

function sqliteWorkload(context: BenchContext): Promise<Workload> {
  let workload = sqliteWorkloads.get(context);
  if (!workload) {
    workload = context
      .startCoffer('hot-sqlite-fs', { stack: 'sqlite-fs' })
      .then((server) => seedWorkload(server, 'hot'));
    sqliteWorkloads.set(context, workload);
  }
  return workload;
}

function getFileOn(stack: Exclude<StackName, 'sqlite-fs'>, label: string, target: number): Scenario {
  return {
    id: `get-file-${stack}`,
    title: `GET /api/v1/file/:id on ${label}, vs the same on SQLite`,
    unit: 'req/s',
    metric: 'rate',
    target,
    prepare: async (context) => {
      if (context.options.stack !== 'pg-s3') return { skipped: 'runs with --stack pg-s3' };
      const { connections, durationSeconds } = context.options;
      const baseline = await sqliteWorkload(context);
      const workload = await seedWorkload(await context.startCoffer(`hot-${stack}`, { stack }), 'hot');
      return {
        scenario: loadSide(stack, hotPathLoad(workload, connections, durationSeconds)),
        baselines: [loadSide('sqlite-fs', hotPathLoad(baseline, connections, durationSeconds))],
      };
    },
  };
}

export const getFileOnPostgres = getFileOn('pg-fs', 'PostgreSQL + file blobs', 0.6);
// Issue 44 item 5: GET on PostgreSQL + S3 costs at most 1.5× the SQLite stack's CPU.
export const getFileOnPostgresS3 = getFileOn('pg-s3', 'PostgreSQL + S3', 1 / 1.5);

const json = { 'content-type': 'application/json' };

/** A main server on PostgreSQL + S3 and its SQLite twin, seeded alike (one pair per scenario). */
async function stackPair(context: BenchContext, name: string) {
  const sqlite = await seedWorkload(
    await context.startCoffer(`${name}-sqlite-fs`, { stack: 'sqlite-fs' }),
    name,
  );
  const pg = await seedWorkload(await context.startCoffer(`${name}-pg-s3`, { stack: 'pg-s3' }), name);
  return { sqlite, pg };
}

/** Upload requests, each for a path of its own (else 409 FILE_EXISTS). */
function uploadRequests(
  label: StackName,
  workload: Workload,
  options: Pick<LoadOptions, 'connections' | 'durationSeconds'>,
): Side {
  const run = randomBytes(3).toString('hex');
  let count = 0;
  const request: LoadRequest = {
    method: 'POST',
    path: '/api/v1/file',
    headers: { ...workload.headers, ...json },
  };
  return {
    label,
    run: () =>
      runLoad({
        url: workload.server.url,
        request,
        nextRequest: () => ({
          body: JSON.stringify({ filePath: `bench/${run}/${count++}.txt`, permissionScope: 'user' }),
        }),
        ...options,
      }),
  };
}

/** Verifies of uploaded files, a pool filled before each timed run. */
function verifies(label: StackName, workload: Workload, amount: number, connections: number): Side {
  return {
    label,
    run: async () => {
      const pool = await uploadPool(workload, amount, `verify/${randomBytes(3).toString('hex')}`);
      let next = 0;
      return runLoad({
        url: workload.server.url,
        request: { method: 'POST', headers: { ...workload.headers, ...json } },
        nextRequest: () => {
          const file = pool[next++];
          return file
            ? { path: `/api/v1/file/${file.fileId}/verify`, body: JSON.stringify({ etag: file.etag }) }
            : { path: '/bench-pool-exhausted' };
        },
        connections,
        amount,
      });
    },
  };
}

// Issue 44 item 5: the upload request on PostgreSQL + S3 costs at most 2× the SQLite stack's CPU.
export const requestUploadOnPostgresS3: Scenario = {
  id: 'request-upload-pg-s3',
  title: 'POST /api/v1/file (upload request) on PostgreSQL + S3, vs the same on SQLite',
  unit: 'req/s',
  metric: 'rate',
  target: 0.5,
  prepare: async (context) => {
    if (context.options.stack !== 'pg-s3') return { skipped: 'runs with --stack pg-s3' };
    const { connections, durationSeconds } = context.options;
    const { sqlite, pg } = await stackPair(context, 'request');
    return {
      scenario: uploadRequests('pg-s3', pg, { connections, durationSeconds }),
      baselines: [uploadRequests('sqlite-fs', sqlite, { connections, durationSeconds })],
    };
  },
};

export const verifyOnPostgresS3: Scenario = {
  id: 'verify-pg-s3',
  title: 'POST /api/v1/file/:id/verify on PostgreSQL + S3, vs the same on SQLite',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    if (context.options.stack !== 'pg-s3') return { skipped: 'runs with --stack pg-s3' };
    const { connections, poolRequests } = context.options;
    const { sqlite, pg } = await stackPair(context, 'verify');
    return {
      scenario: verifies('pg-s3', pg, poolRequests, connections),
      baselines: [verifies('sqlite-fs', sqlite, poolRequests, connections)],
    };
  },
};
