/** The hot path (GET /api/v1/file/:id) under conditions: concurrent logins, a million records. */
import { runLoad } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
import { loadSide, withCompanion } from './sides.ts';

export function hotPathLoad(workload: Workload, connections: number, durationSeconds: number) {
  return {
    url: workload.server.url,
    request: {
      method: 'GET' as const,
      path: `/api/v1/file/${workload.smallFileId}`,
      headers: workload.headers,
    },
    connections,
    durationSeconds,
  };
}

/** Connections that keep logging in meanwhile: enough to keep libuv's 4 argon2 threads busy. */
const loginConnections = 4;

export const loginInterference: Scenario = {
  id: 'login-interference',
  title: 'GET /api/v1/file/:id while logins run (p50 vs alone)',
  unit: 'req/s',
  metric: 'p50',
  // The issue: logins under load must not slow reads by more than 2×.
  target: 0.5,
  prepare: async (context) => {
    const workload = await context.workload();
    const { connections, durationSeconds } = context.options;
    const reads = hotPathLoad(workload, connections, durationSeconds);
    const logins = {
      url: workload.server.url,
      request: {
        method: 'POST' as const,
        path: '/api/v1/auth/login',
        headers: {
          'sb-app-id': workload.server.credentials.appId,
          'sb-app-secret': workload.server.credentials.appSecret,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: workload.email, password: workload.password }),
      },
      connections: loginConnections,
      durationSeconds,
    };
    return {
      scenario: {
        label: 'with logins',
        run: async () => {
          const [measured, loginLoad] = await Promise.all([runLoad(reads), runLoad(logins)]);
          return withCompanion(measured, loginLoad);
        },
      },
      baselines: [loadSide('alone', reads)],
    };
  },
};

/**
 * The hot path over many files: each request reads a random one of the seeded records, so
 * the lookups spread over the whole B-tree as real traffic does, rather than one cached row.
 */
function spreadHotPathLoad(
  workload: Workload,
  ids: readonly string[],
  connections: number,
  durationSeconds: number,
) {
  return {
    ...hotPathLoad(workload, connections, durationSeconds),
    nextRequest: () => ({ path: `/api/v1/file/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
}

export const manyRecords: Scenario = {
  id: 'many-records',
  title: 'GET /api/v1/file/:id at many records (p50 vs 1k records)',
  unit: 'req/s',
  metric: 'p50',
  // The issue: at 1M records the hot path's p50 stays within 1.5× of the 1k figure.
  target: 1 / 1.5,
  prepare: async (context) => {
    const sizes = { few: 1000, many: context.options.manyRecords };
    const seeded: Record<string, { workload: Workload; ids: string[] }> = {};
    for (const [name, count] of Object.entries(sizes)) {
      const server = await context.startCoffer(`records-${name}`);
      const workload = await seedWorkload(server, name);
      const { seconds, sampleIds } = await seedServerRecords(server, {
        projectId: server.credentials.projectId,
        creatorId: workload.userId,
        count: count - 1, // the workload's own file is one record
        sampleSize: 10_000,
      });
      console.log(`  seeded ${count.toLocaleString('en')} file records in ${seconds.toFixed(1)} s`);
      seeded[name] = { workload, ids: sampleIds };
    }
    const { connections, durationSeconds } = context.options;
    const spread = (name: string) =>
      spreadHotPathLoad(seeded[name]!.workload, seeded[name]!.ids, connections, durationSeconds);
    return {
      scenario: loadSide(`${sizes.many.toLocaleString('en')} records`, spread('many')),
      baselines: [loadSide('1,000 records', spread('few'))],
    };
  },
};
