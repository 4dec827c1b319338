import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { NewFile } from '../../src/domain/files/file-record.ts';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { noContract } from '../../src/domain/files/upload-contract.ts';
import { newFileId, newId } from '../../src/domain/ids.ts';
import type { DatabaseSchema } from '../../src/persistence/database-schema.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { NodeSqliteDialect } from '../../src/persistence/node-sqlite-dialect.ts';
import { KyselyFileRepository } from '../../src/persistence/repositories/kysely-file-repository.ts';
import { startPostgres } from '../support/postgres-server.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 44, item 2: an upload request's writes cost the same in a project of ten files and of
 * a million, so none of its statements may walk a table that grows with the project. Checked
 * on the plans, not on timings (which a busy machine bends): every statement the repository
 * sends for an upload request (the insert, the creator's ACL entry, the quota check, the
 * folder shares; and, on a path whose upload was abandoned, the replacement's reads and
 * delete) and, on SQLite, every statement of the triggers those writes fire (usage, folder
 * tallies, the name index, row stamps), whose plans SQLite's EXPLAIN does not show.
 */
const quotas: QuotaLimits = {
  userQuotaBytes: 1e15,
  userQuotaFiles: 1e12,
  projectQuotaBytes: 1e15,
  projectQuotaFiles: 1e12,
};
/** Tables that grow with the project: a full scan of any of them is the regression. */
const growing =
  /\b(files|file_acl|file_names|file_custom_values|folders|folder_shares|storage_usage|events|outbox\w*)\b/;

type Captured = CompiledQuery[];

/** Runs the upload request's writes twice (a free path, then a path whose upload was abandoned). */
async function runUploadRequests(db: Kysely<DatabaseSchema>, captured: Captured): Promise<void> {
  const files = new KyselyFileRepository(db);
  const projectId = newId();
  const creatorId = newId();
  const file = (filePath: string, uploadExpiresAt: number): NewFile => ({
    id: newFileId(),
    projectId,
    creatorId,
    filePath,
    permissionScope: 'user',
    uploadExpiresAt,
    customData: { case: 'c-1' },
    declared: { ...noContract, sizeBytes: 10 },
  });
  // Others' files and the creator's, so that no table is empty.
  for (let i = 0; i < 20; i++) await files.create(file(`seed/${i}.txt`, 0), new Date(), quotas);
  await files.create(file('a/b/abandoned.txt', 1), new Date(), quotas);
  captured.length = 0;
  await files.create(file('a/b/new.txt', Math.floor(Date.now() / 1000) + 3600), new Date(), quotas);
  await files.create(file('a/b/abandoned.txt', Math.floor(Date.now() / 1000) + 3600), new Date(), quotas);
  captured.splice(
    0,
    captured.length,
    ...captured.filter((query) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(query.sql)),
  );
  const texts = captured.map((query) => query.sql.toLowerCase());
  assert.ok(texts.some((text) => text.startsWith('insert into "files"')));
  assert.ok(texts.some((text) => text.startsWith('insert into "file_acl"')));
  assert.ok(texts.some((text) => text.includes('from "storage_usage"')));
  assert.ok(texts.some((text) => text.startsWith('delete from "files"')));
}

function assertNoScan(statement: string, plan: string[], scanPattern: RegExp): void {
  const scans = plan.filter((line) => scanPattern.test(line));
  assert.deepEqual(scans, [], `${statement}\n${plan.join('\n')}`);
}

/** The body statements of the triggers on these tables that fire on insert or delete. */
function triggerStatements(database: DatabaseSync, tables: string[]): string[] {
  const rows = database
    .prepare(
      `select sql from sqlite_master where type = 'trigger' and tbl_name in (${tables.map(() => '?').join(', ')})`,
    )
    .all(...tables) as Array<{ sql: string }>;
  const statements: string[] = [];
  for (const { sql } of rows) {
    if (!/\bafter (insert|delete) on\b/i.test(sql)) continue;
    const begin = sql.search(/\bbegin\b/i);
    // A WHEN clause runs on every row too (file_acl_insert_row_stamp reads the file's row).
    const when = /\bwhen\b([\s\S]*)$/i.exec(sql.slice(0, begin))?.[1];
    if (when !== undefined) statements.push(`select 1 where ${when.trim()}`);
    const body = sql.slice(begin + 'begin'.length, sql.search(/\bend\s*$/i));
    statements.push(
      ...body
        .split(';')
        .map((text) => text.trim())
        .filter(Boolean),
    );
  }
  return statements;
}

/** A trigger statement's plan, its new.* and old.* columns bound to a sample row's values. */
function triggerPlan(database: DatabaseSync, statement: string): string[] {
  const sample: Record<string, unknown> = {
    id: 'f',
    file_id: 'f',
    project_id: 'p',
    creator_id: 'c',
    file_path: 'a/b/c.txt',
    name: 'c.txt',
    rowid: 1,
    custom_data: '{"case":"c-1"}',
    created_at: 1,
  };
  const values: unknown[] = [];
  const text = statement.replace(/\b(new|old)\.(\w+)/gi, (_, _row, column: string) => {
    values.push(sample[column] ?? null);
    return '?';
  });
  return database
    .prepare(`explain query plan ${text}`)
    .all(...(values as never[]))
    .map((row) => String(row.detail));
}

// Its own SQLite database and PostgreSQL server, whatever the pass: one pass runs it.
describe('the upload request walks no table that grows with the project', {
  skip: currentStackName() === 'pg-s3' && 'own servers, not the pass’s: runs in the embedded pass',
}, () => {
  it('SQLite: every statement and every trigger it fires searches an index', async () => {
    const database = new DatabaseSync(':memory:');
    const captured: Captured = [];
    const db = new Kysely<DatabaseSchema>({
      dialect: new NodeSqliteDialect({ database, busyTimeoutMs: 5000 }),
      log: (event) => {
        captured.push(event.query);
      },
    });
    after(() => db.destroy());
    database.exec('pragma foreign_keys = on');
    await migrateToLatest(db);
    await runUploadRequests(db, captured);
    const scan = new RegExp(`^SCAN ${growing.source}`);
    for (const query of captured) {
      const plan = database
        .prepare(`explain query plan ${query.sql}`)
        .all(...(query.parameters as never[]))
        .map((row) => String(row.detail));
      assertNoScan(query.sql, plan, scan);
    }
    const fired = triggerStatements(database, ['files', 'file_acl', 'file_names']);
    assert.ok(fired.length >= 8, `the triggers' statements: ${fired.length}`);
    for (const statement of fired) assertNoScan(statement, triggerPlan(database, statement), scan);
  });

  it('PostgreSQL: every statement uses an index where one exists (seq scans off)', async (t) => {
    const server = await startPostgres();
    if (!server) return t.skip('PostgreSQL is not installed');
    after(() => server.stop());
    const pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 2 });
    pool.on('error', () => {});
    const captured: Captured = [];
    const db = new Kysely<DatabaseSchema>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        captured.push(event.query);
      },
    });
    after(() => db.destroy());
    await migrateToLatest(db);
    await runUploadRequests(db, captured);
    // A free path is one call of create_file_at_once (migration 0047); the abandoned upload's
    // replacement, the transaction of the statements above.
    assert.ok(captured.some((query) => query.sql.startsWith('call create_file_at_once(')));
    // With sequential scans priced out, a Seq Scan left in a plan means no index serves it.
    const seqScan = new RegExp(`Seq Scan on ${growing.source}`);
    const client = await pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      for (const query of captured) {
        if (query.sql.startsWith('call ')) {
          await assertProcedureUsesIndexes(client, query, seqScan);
          continue;
        }
        const { rows } = await client.query(`explain (costs off) ${query.sql}`, [...query.parameters]);
        const plan = rows.map((row) => String(row['QUERY PLAN']));
        assertNoScan(query.sql, plan, seqScan);
      }
    } finally {
      client.release();
    }
  });
});

/**
 * A procedure has no EXPLAIN of its own: its statements' plans, and those of the triggers they
 * fire, come from auto_explain as notices, while the call runs again on another path (a new
 * id and file name in the same folder) inside a transaction rolled back.
 */
async function assertProcedureUsesIndexes(client: pg.PoolClient, call: CompiledQuery, seqScan: RegExp) {
  const notices: string[] = [];
  const listen = (notice: { message?: string }) => notices.push(notice.message ?? '');
  client.on('notice', listen);
  try {
    await client.query('begin');
    await client.query("load 'auto_explain'");
    for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_level = notice'])
      await client.query(`set local auto_explain.${setting}`);
    const parameters = [...call.parameters];
    parameters[0] = newFileId();
    parameters[3] = 'a/b/planned.txt';
    await client.query(call.sql, parameters);
  } finally {
    await client.query('rollback');
    client.off('notice', listen);
  }
  const plans = notices.filter((notice) => notice.includes('Query Text:'));
  const statements = [
    'insert into files',
    'insert into file_acl',
    'from storage_usage',
    'from folder_shares',
  ];
  for (const statement of statements)
    assert.ok(
      plans.some((plan) => plan.includes(statement)),
      `no plan of "${statement}" among:\n${plans.join('\n')}`,
    );
  for (const plan of plans) assertNoScan(call.sql, plan.split('\n'), seqScan);
}
