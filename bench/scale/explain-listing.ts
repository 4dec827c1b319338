/**
 * The query plans and timings of GET /api/v1/file's queries at scale, on both dialects:
 * `node bench/scale/explain-listing.ts [--files N] [--many N] [--postgres]`.
 * Builds a project of N files (default 1,000,000) where one reader owns `many`, one owns ten
 * and one none, runs listFiles for each reader and for an admin, with and without a filePath
 * prefix, and prints every statement it sent with its plan (EXPLAIN QUERY PLAN on SQLite,
 * EXPLAIN ANALYZE on PostgreSQL) and the median time of the call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { FileListQuery } from '../../src/domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../src/persistence/database-schema.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { NodeSqliteDialect } from '../../src/persistence/node-sqlite-dialect.ts';
import { listFiles } from '../../src/persistence/repositories/files/list-files.ts';
import { startPostgres } from '../../test/support/postgres-server.ts';
import { median } from '../scenario.ts';
import { seedFileRecords } from '../seed/seed-file-records.ts';

const { values } = parseArgs({
  options: { files: { type: 'string' }, many: { type: 'string' }, postgres: { type: 'boolean' } },
});
const files = Number(values.files ?? 1_000_000);
const many = Number(values.many ?? 100_000);
const projectId = 'scale-project';
const owners = { others: files - many - 10, many, few: 10 } as const;
const spanMs = 30 * 24 * 3600 * 1000;

type Plan = (query: CompiledQuery) => Promise<string>;

const cases: Array<{ name: string; query: Partial<FileListQuery> }> = [];
for (const [name, reader] of [
  ['admin', { readerId: 'admin', readerRole: 'admin', isAdmin: true }],
  ['many', { readerId: 'many' }],
  ['few', { readerId: 'few' }],
  ['none', { readerId: 'none' }],
] as const) {
  cases.push({ name, query: reader });
  // Both extremes of a prefix: one that holds every file of the set, and one that holds none.
  cases.push({ name: `${name}, prefix of all`, query: { ...reader, filePathPrefix: 'seed-' } });
  cases.push({ name: `${name}, prefix of none`, query: { ...reader, filePathPrefix: 'none/' } });
}

/**
 * Prefixes between the extremes, from the seeded paths (`seed-<batch>/<zero-padded n>.bin`,
 * n in time order): the few reader's ten files, and the oldest 100, 10,000 and 100,000 of the
 * others' (the adversarial shape for a walk in time order: every match at the far end).
 */
async function pathCases(db: Kysely<DatabaseSchema>) {
  const oldest = async (creatorId: string) =>
    (
      await db
        .selectFrom('files')
        .select('file_path')
        .where('creator_id', '=', creatorId)
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).file_path;
  const fewFolder = (await oldest('few')).split('/')[0]!;
  const othersFirst = await oldest('others'); // seed-<batch>/000000.bin
  const [folder, name] = othersFirst.split('/') as [string, string];
  const digits = name.split('.')[0]!.length;
  const oldestOf = (count: number) => `${folder}/${'0'.repeat(digits - Math.log10(count))}`;
  const admin = { readerId: 'admin', readerRole: 'admin', isAdmin: true };
  return [
    { name: "admin, prefix of the few reader's 10", query: { ...admin, filePathPrefix: `${fewFolder}/` } },
    { name: 'few, prefix of its 10', query: { readerId: 'few', filePathPrefix: `${fewFolder}/` } },
    ...[100, 10_000, 100_000].map((count) => ({
      name: `admin, prefix of the oldest ${count}`,
      query: { ...admin, filePathPrefix: oldestOf(count) },
    })),
  ];
}

async function explainAll(
  db: Kysely<DatabaseSchema>,
  captured: CompiledQuery[],
  plan: Plan,
  extraCases: typeof cases = [],
) {
  for (const { name, query } of [...cases, ...extraCases]) {
    const full: FileListQuery = {
      projectId,
      readerId: '',
      readerRole: 'user',
      isAdmin: false,
      limit: 20,
      offset: 0,
      ...query,
    };
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 21; i++) {
      captured.length = 0;
      const started = performance.now();
      total = (await listFiles(db, full)).total;
      times.push(performance.now() - started);
    }
    console.log(`\n## ${name}: total ${total}, median ${median(times).toFixed(2)} ms`);
    for (const statement of captured) {
      console.log(`${statement.sql}\n${await plan(statement)}`);
    }
  }
}

async function onSqlite() {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-explain-'));
  try {
    const file = path.join(dir, 'coffer.db');
    const captured: CompiledQuery[] = [];
    const database = new DatabaseSync(file);
    database.exec('pragma journal_mode = wal');
    const db = new Kysely<DatabaseSchema>({
      dialect: new NodeSqliteDialect({ database, busyTimeoutMs: 5000 }),
      log: (event) => {
        captured.push(event.query);
      },
    });
    await migrateToLatest(db);
    for (const [creatorId, count] of Object.entries(owners)) {
      const { seconds } = seedFileRecords({
        databasePath: file,
        projectId,
        creatorId,
        count,
        spanMs,
        sampleSize: 0,
      });
      console.log(`seeded ${count} files of ${creatorId} in ${seconds.toFixed(1)} s`);
    }
    const plan: Plan = async (query) =>
      database
        .prepare(`explain query plan ${query.sql}`)
        .all(...(query.parameters as never[]))
        .map((row) => `  ${row.detail}`)
        .join('\n');
    await explainAll(db, captured, plan, await pathCases(db));
    await db.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const server = await startPostgres();
  if (!server) return;
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pool.on('error', () => {});
  const captured: CompiledQuery[] = [];
  const db = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      captured.push(event.query);
    },
  });
  try {
    await migrateToLatest(db);
    const started = performance.now();
    let first = 0;
    for (const [creatorId, count] of Object.entries(owners)) {
      await sql`
        insert into files (id, project_id, creator_id, file_path, permission_scope, verified,
          upload_expires_at, created_at, updated_at, version)
        select ${creatorId} || '-' || n, ${projectId}, ${creatorId}, 'seed-' || n, 'user', 1, 0,
          ${Date.now() - spanMs}::bigint + (n::bigint * ${Math.floor(spanMs / count)}), 0, 1
        from generate_series(${first}::int, ${first + count - 1}::int) n`.execute(db);
      first += count;
    }
    await sql`
      insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
      select id, 'user', creator_id, 0, project_id, created_at from files`.execute(db);
    await sql`analyze`.execute(db);
    console.log(`seeded ${files} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await explainAll(db, captured, async (query) => {
      const { rows } = await pool.query(`explain (analyze, costs off) ${query.sql}`, [...query.parameters]);
      return rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n');
    });
  } finally {
    await db.destroy();
    await server.stop();
  }
}

if (values.postgres) await onPostgres();
else await onSqlite();
