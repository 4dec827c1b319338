/**
 * The query plans of GET /api/v1/file's searches (issue 40) at scale, on both dialects:
 * `node bench/scale/explain-search.ts [--files N] [--postgres]`. Builds a project of N files
 * (default 100,000: 100 of `others`, the rest of `many`; `few` is named in the ACL of 50 of
 * the others'), every one with a content type, a size and customData, runs searchFiles for an admin and a reader per filter,
 * and prints each statement it sent with its plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN
 * ANALYZE on PostgreSQL) and the median time of the call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { FileSearchQuery } from '../../src/domain/files/file-search.ts';
import type { DatabaseSchema } from '../../src/persistence/database-schema.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { NodeSqliteDialect } from '../../src/persistence/node-sqlite-dialect.ts';
import { searchFiles } from '../../src/persistence/repositories/files/search-files.ts';
import { startPostgres } from '../../test/support/postgres-server.ts';
import { median } from '../scenario.ts';

const { values } = parseArgs({ options: { files: { type: 'string' }, postgres: { type: 'boolean' } } });
const files = Number(values.files ?? 100_000);
const projectId = 'scale-project';

const admin = { readerId: 'admin', isAdmin: true };
const many = { readerId: 'many', isAdmin: false };
/** 10,000 of `many`'s files shared with `grantee` (a quarter by its role `viewer`), as the bench's. */
const grantee = { readerId: 'grantee', readerRole: 'viewer', isAdmin: false };
const cases: Array<{ name: string; query: Partial<FileSearchQuery> }> = [
  { name: 'admin, name rare', query: { ...admin, filters: { customData: [], name: 'x00042' } } },
  { name: 'many, name rare', query: { ...many, filters: { customData: [], name: 'x00042' } } },
  { name: 'admin, name common', query: { ...admin, filters: { customData: [], name: '.bin' } } },
  {
    name: 'admin, contentType rare',
    query: { ...admin, filters: { customData: [], contentType: { exact: 'image/gif' } } },
  },
  {
    name: 'admin, contentType image/*',
    query: { ...admin, filters: { customData: [], contentType: { prefix: 'image/' } } },
  },
  {
    name: 'many, customData rare',
    query: { ...many, filters: { customData: [{ key: 'case', value: 'c-42' }] } },
  },
  {
    name: 'admin, customData common',
    query: { ...admin, filters: { customData: [{ key: 'kind', value: 'scan' }] } },
  },
  {
    name: 'admin, size range rare',
    query: { ...admin, filters: { customData: [], minSize: 5, maxSize: 5 } },
  },
  {
    name: 'many, created range',
    query: { ...many, filters: { customData: [], createdAfter: Date.now() - 3_600_000 } },
  },
  { name: 'admin, sort name', query: { ...admin, sort: 'name', order: 'asc' } },
  { name: 'many, sort size', query: { ...many, sort: 'size' } },
  { name: 'few, scope shared', query: { readerId: 'few', isAdmin: false, scope: 'shared' } },
  {
    name: 'grantee (10,000 shared), scope shared, image/*',
    query: { ...grantee, scope: 'shared', filters: { customData: [], contentType: { prefix: 'image/' } } },
  },
  {
    name: 'grantee (10,000 shared), scope shared, name rare',
    query: { ...grantee, scope: 'shared', filters: { customData: [], name: 'x00042' } },
  },
];

async function explainAll(
  db: Kysely<DatabaseSchema>,
  captured: CompiledQuery[],
  plan: (q: CompiledQuery) => Promise<string>,
) {
  for (const { name, query } of cases) {
    const full: FileSearchQuery = {
      projectId,
      readerId: '',
      readerRole: 'user',
      isAdmin: false,
      filters: { customData: [] },
      sort: 'createdAt',
      order: 'desc',
      scope: 'all',
      limit: 20,
      offset: 0,
      ...query,
    };
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < 11; i++) {
      captured.length = 0;
      const started = performance.now();
      found = (await searchFiles(db, full)).files.length;
      times.push(performance.now() - started);
    }
    console.log(`\n## ${name}: ${found} files, median ${median(times).toFixed(2)} ms`);
    for (const statement of captured)
      console.log(`${statement.sql.replace(/\s+/g, ' ')}\n${await plan(statement)}`);
  }
}

/** N files: `many` owns all but 100 (`others`' shared with `few` by ACL: 50). */
async function seed(db: Kysely<DatabaseSchema>, sqlite: boolean) {
  const series = sqlite
    ? sql`with recursive s(n) as (select 0 union all select n + 1 from s where n < ${files - 1}) select n from s`
    : sql`select n from generate_series(0, ${files - 1}) n`;
  const text = (expr: string) => sql.raw(sqlite ? `cast(${expr} as text)` : `(${expr})::text`);
  await sql`insert into files (id, project_id, creator_id, file_path, permission_scope, verified,
      content_type, content_size_bytes, custom_data, upload_expires_at, created_at, updated_at, version)
    select 'f' || ${text('n')}, ${projectId}, case when n < 100 then 'others' else 'many' end,
      'seed/x' || ${sql.raw(sqlite ? "substr('00000' || n, -5, 5)" : "lpad(n::text, 5, '0')")} || '.bin', 'user', 1,
      case when n = 7 then 'image/gif' when n % 3 = 0 then 'image/jpeg' else 'application/octet-stream' end,
      case when n = 11 then 5 else 1000 + n end,
      '{"case":"c-' || ${text('n')} || '","kind":"scan"}',
      0, cast(${Date.now() - 30 * 86_400_000} as bigint) + n * 1000, 0, 1
    from (${series}) seq`.execute(db);
  await sql`insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
    select id, 'user', 'few', 1, project_id, created_at from files where creator_id = 'others' and created_at % 2000 = 0`.execute(
    db,
  );
  const grantees = Math.min(10_000, Math.floor(files / 2));
  await sql`insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
    select id, case when id like '%00' then 'role' else 'user' end,
      case when id like '%00' then 'viewer' else 'grantee' end, 1, project_id, created_at
    from files where creator_id = 'many' and (id like '%0' or id like '%5') limit ${grantees}`.execute(db);
  if (!sqlite) await sql`analyze`.execute(db);
}

async function onSqlite() {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-explain-'));
  try {
    const database = new DatabaseSync(path.join(dir, 'coffer.db'));
    const captured: CompiledQuery[] = [];
    const db = new Kysely<DatabaseSchema>({
      dialect: new NodeSqliteDialect({ database, busyTimeoutMs: 5000 }),
      log: (event) => {
        captured.push(event.query);
      },
    });
    await migrateToLatest(db);
    await seed(db, true);
    await sql`analyze`.execute(db);
    await explainAll(db, captured, async (query) =>
      database
        .prepare(`explain query plan ${query.sql}`)
        .all(...(query.parameters as never[]))
        .map((row) => `  ${row.detail}`)
        .join('\n'),
    );
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
    await seed(db, false);
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
