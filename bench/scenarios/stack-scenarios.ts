/**
 * The hot path (GET /api/v1/file/:id) on PostgreSQL, with blobs on disk and on S3, against the
 * same on the embedded stack (SQLite, blobs on disk): each on a server of its own, seeded alike,
 * in the same run. Part of `--stack pg-s3` runs (they need PostgreSQL and the S3 server).
 */
import type { BenchContext } from '../bench-context.ts';
import type { StackName } from '../processes/bench-stores.ts';
import type { Scenario } from '../scenario.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
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
export const getFileOnPostgresS3 = getFileOn('pg-s3', 'PostgreSQL + S3', 0.5);
