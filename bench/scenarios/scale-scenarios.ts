/**
 * Listing costs a page, not a project (issue 9): a project of a million files (the smoke run:
 * ten thousand) where one reader owns many, one ten and one none, and an admin sees all.
 * Each reader's first page is timed against the same reader in a project that holds only
 * the readers' files (the same page from the same sets: project size is the one difference),
 * and point reads are timed while one client lists in a loop against the same reads alone.
 * Every side also reports the server's event-loop delay (bench/probes/).
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import type { BenchContext } from '../bench-context.ts';
import { EventLoopDelayProbe } from '../probes/event-loop-delay.ts';
import type { CofferServer } from '../processes/coffer-server.ts';
import { type LoadOptions, runLoad } from '../run-load.ts';
import type { Scenario, Side } from '../scenario.ts';
import { searchablePathOf, searchableShapeOf } from '../seed/searchable-records.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
import { withCompanion } from './sides.ts';

const readerNames = ['admin', 'many', 'few', 'none'] as const;
export type ReaderName = (typeof readerNames)[number];

export type ScaleServer = {
  readers: Record<ReaderName, Workload>;
  /** Ids of other creators' files, drawn at random over the table, for the point reads. */
  readIds: string[];
  probe: EventLoopDelayProbe;
};

type ScaleWorld = { large: ScaleServer; small: ScaleServer; projectFiles: number; manyFiles: number };

const worlds = new WeakMap<BenchContext, Promise<ScaleWorld>>();

/** Both servers, seeded once per bench run and shared by every scale scenario (and the searches). */
export function scaleWorld(context: BenchContext): Promise<ScaleWorld> {
  let world = worlds.get(context);
  if (!world) {
    world = seedScaleWorld(context);
    worlds.set(context, world);
  }
  return world;
}

async function seedScaleWorld(context: BenchContext): Promise<ScaleWorld> {
  const projectFiles = context.options.manyRecords;
  const manyFiles = context.options.smoke ? 1000 : 100_000;
  const owned = { many: manyFiles, few: 10 };
  const large = await startScaleServer(context, 'scale-large', {
    ...owned,
    others: projectFiles - manyFiles - 10,
  });
  // The others' files are what the large project adds; a few keep the point reads possible.
  const small = await startScaleServer(context, 'scale-small', { ...owned, others: 1000 });
  return { large, small, projectFiles, manyFiles };
}

async function startScaleServer(
  context: BenchContext,
  name: string,
  owned: { many: number; few: number; others: number },
): Promise<ScaleServer> {
  const probe = new EventLoopDelayProbe(path.join(context.workDir, `${name}-event-loop`));
  const server = await context.startCoffer(name, { nodeArgs: probe.nodeArgs, env: probe.env });
  const readers = {} as Record<ReaderName, Workload>;
  // seedWorkload signs each up and uploads one small file of theirs (the "none" reader's too:
  // listing it makes no difference, and every reader holds a working token the same way).
  for (const reader of readerNames) readers[reader] = await seedWorkload(server, `${name}-${reader}`);
  const { projectId } = server.credentials;
  await promoteToAdmin(server, projectId, readers.admin.userId);
  // Spread over the same month, so every set interleaves with the others in time.
  const spanMs = 30 * 24 * 3600 * 1000;
  let readIds: string[] = [];
  const started = performance.now();
  for (const [owner, count] of Object.entries(owned)) {
    const creatorId = owner === 'others' ? 'bench-others' : readers[owner as ReaderName].userId;
    const seeded = await seedServerRecords(server, {
      projectId,
      creatorId,
      count,
      spanMs,
      sampleSize: 10_000,
      // The others' records are what the searches of issue 40 filter (search-scenarios.ts).
      ...(owner === 'others' ? { pathOf: searchablePathOf(count), shapeOf: searchableShapeOf } : {}),
    });
    if (owner === 'others') readIds = seeded.sampleIds;
  }
  // Seeding a million rows blocks this process for longer than the server keeps an idle
  // connection (5 s): one turn of the event loop lets the HTTP client see those closes, or its
  // next request goes out on a closed socket ("other side closed").
  await setTimeout(100);
  await assertListingSees(readers.many, owned.many);
  const total = owned.many + owned.few + owned.others;
  console.log(
    `  ${name}: seeded ${total.toLocaleString('en')} file records in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { readers, readIds, probe };
}

/**
 * The project's admin role, written straight into the database, and the access epoch moved on
 * so that the server's user cache reads the account again (as `coffer user set-role` does).
 */
async function promoteToAdmin(server: CofferServer, projectId: string, userId: string): Promise<void> {
  const promote = 'update users set role = (select admin_role from projects where id = $1) where id = $2';
  const bumpEpoch = 'update access_epoch set value = value + 1 where id = 1';
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    client.on('error', () => {}); // a dropped connection fails the query in flight, which throws
    await client.connect();
    try {
      await client.query(promote, [projectId, userId]);
      await client.query(bumpEpoch);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new DatabaseSync(path.join(server.dataDir, 'coffer.db'));
  try {
    db.exec('pragma busy_timeout = 30000');
    db.prepare(promote.replace('$1', '?').replace('$2', '?')).run(projectId, userId);
    db.exec(bumpEpoch);
  } finally {
    db.close();
  }
}

/** The seeded rows are listable as the API's own would be (their ACL listing keys included). */
async function assertListingSees(reader: Workload, seeded: number): Promise<void> {
  const response = await fetch(`${reader.server.url}/api/v1/file`, { headers: reader.headers });
  const page = (await response.json()) as { docs?: unknown[] };
  if (response.status !== 200 || (page.docs?.length ?? 0) < Math.min(seeded, 20))
    throw new Error(
      `the seeded files are not listed: ${response.status}, ${page.docs?.length} on the first page`,
    );
}

/** A side whose measurement carries the server's event-loop delay over the run. */
function probedSide(label: string, server: ScaleServer, run: () => ReturnType<typeof runLoad>): Side {
  return {
    label,
    run: async () => {
      const { result, eventLoopDelay } = await server.probe.measure(run);
      return { ...result, eventLoopDelay };
    },
  };
}

/** One client asking for one reader's first page (the default page size), again and again. */
function listingLoad(
  server: ScaleServer,
  readers: readonly ReaderName[],
  durationSeconds: number,
): LoadOptions {
  const first = server.readers[readers[0]!];
  let next = 0;
  return {
    url: first.server.url,
    request: { method: 'GET', path: '/api/v1/file', headers: first.headers },
    connections: 1,
    durationSeconds,
    nextRequest: () => ({ headers: server.readers[readers[next++ % readers.length]!].headers }),
  };
}

function listFirstPage(reader: ReaderName): Scenario {
  return {
    id: `scale-list-${reader}`,
    title: `GET /api/v1/file first page, ${reader === 'admin' ? 'an admin' : `a reader owning ${reader}`}, at scale (p50 vs a project of the readers' files only)`,
    unit: 'req/s',
    metric: 'p50',
    // The issue: p50 < 5 ms for each reader, independent of project size.
    target: 0.8,
    prepare: async (context) => {
      const world = await scaleWorld(context);
      const { durationSeconds } = context.options;
      const side = (label: string, server: ScaleServer) =>
        probedSide(label, server, () => runLoad(listingLoad(server, [reader], durationSeconds)));
      return {
        scenario: side(`${world.projectFiles.toLocaleString('en')} files`, world.large),
        baselines: [side('readers only', world.small)],
      };
    },
  };
}

export const scaleListAdmin = listFirstPage('admin');
export const scaleListMany = listFirstPage('many');
export const scaleListFew = listFirstPage('few');
export const scaleListNone = listFirstPage('none');

export const scaleReadsWhileListing: Scenario = {
  id: 'scale-reads-while-listing',
  title: 'GET /api/v1/file/:id at scale while one client lists (rate vs reads alone)',
  unit: 'req/s',
  metric: 'rate',
  // The issue: reads keep ≥ 0.8× of their rate alone, p99 < 50 ms.
  target: 0.8,
  prepare: async (context) => {
    const { large } = await scaleWorld(context);
    const { connections, durationSeconds } = context.options;
    const admin = large.readers.admin;
    const reads: LoadOptions = {
      url: admin.server.url,
      request: { method: 'GET', path: `/api/v1/file/${large.readIds[0]}`, headers: admin.headers },
      connections,
      durationSeconds,
      nextRequest: () => ({
        path: `/api/v1/file/${large.readIds[Math.floor(Math.random() * large.readIds.length)]}`,
      }),
    };
    return {
      scenario: probedSide('while listing', large, async () => {
        const [measured, listing] = await Promise.all([
          runLoad(reads),
          runLoad(listingLoad(large, readerNames, durationSeconds)),
        ]);
        return withCompanion(measured, listing);
      }),
      baselines: [probedSide('reads alone', large, () => runLoad(reads))],
    };
  },
};
