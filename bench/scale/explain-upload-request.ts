/**
 * The upload request's writes at scale (issue 44, item 2): `node bench/scale/explain-upload-request.ts
 * [--files N] [--requests N] [--keep DIR]`. Builds a project of N files (default 1,000,000; as the
 * API writes them: each fires the files' triggers, so the folders, the usage rows and the name
 * index are what uploads would leave) in one SQLite file opened as the server opens it (WAL,
 * the checkpoint thread), then runs FileRepository.create as an upload request does (quotas
 * set, so the usage check runs) and prints every statement it sent with its plan, and the
 * median and p99 time of a create, alone and 50 at a time (the group commit's batches).
 * `--random-ids` gives the new files ids of 128 random bits (as before issue 44) for the
 * comparison. `--keep DIR` keeps the seeded database in DIR and reuses it on the next run.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { type CompiledQuery, Kysely, sql } from 'kysely';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { noContract } from '../../src/domain/files/upload-contract.ts';
import { newFileId, newId } from '../../src/domain/ids.ts';
import type { DatabaseSchema } from '../../src/persistence/database-schema.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { NodeSqliteDialect } from '../../src/persistence/node-sqlite-dialect.ts';
import { openSqliteDatabase } from '../../src/persistence/open-sqlite-database.ts';
import { KyselyFileRepository } from '../../src/persistence/repositories/kysely-file-repository.ts';
import { median } from '../scenario.ts';

const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    requests: { type: 'string' },
    keep: { type: 'string' },
    'random-ids': { type: 'boolean' },
  },
});
const files = Number(values.files ?? 1_000_000);
const requests = Number(values.requests ?? 2000);
// --random-ids: file ids of 128 random bits, as before issue 44 (newId), for the comparison.
const fileId = values['random-ids'] ? () => newId() : () => newFileId();
const projectId = 'scale-project';
const quotas: QuotaLimits = {
  userQuotaBytes: 1e15,
  userQuotaFiles: 1e12,
  projectQuotaBytes: 1e15,
  projectQuotaFiles: 1e12,
};

/** N files of `many` in folders of 1,000, ids random as the server's, with their ACL entries. */
async function seed(db: Kysely<DatabaseSchema>) {
  const started = performance.now();
  await sql`insert into files (id, project_id, creator_id, file_path, permission_scope, verified, etag,
      content_type, content_size_bytes, upload_expires_at, created_at, updated_at, version, blob_version)
    select lower(hex(randomblob(16))), ${projectId}, 'many',
      'seed/d' || (n / 1000) || '/x' || n || '.bin', 'user', 1, '"e"', 'application/octet-stream', 1024,
      0, cast(${Date.now() - 30 * 86_400_000} as bigint) + n * 1000, 0, 1, '000000000000000000000000'
    from (with recursive s(n) as (select 0 union all select n + 1 from s where n < ${files - 1}) select n from s)`.execute(
    db,
  );
  await sql`insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
    select id, 'user', creator_id, 0, project_id, created_at from files`.execute(db);
  console.log(
    `seeded ${files.toLocaleString('en')} files in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Wall times of each create, and the process's CPU per create (its checkpoint thread's included). */
function report(label: string, timesMs: number[], cpu: NodeJS.CpuUsage, creates: number) {
  const sorted = [...timesMs].sort((a, b) => a - b);
  const cpuUs = (cpu.user + cpu.system) / creates;
  console.log(
    `${label}: CPU ${cpuUs.toFixed(0)} µs per create; wall median ${(median(sorted) * 1000).toFixed(0)} µs, p99 ${(percentile(sorted, 0.99) * 1000).toFixed(0)} µs, max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
}

const dir = values.keep ?? mkdtempSync(path.join(tmpdir(), 'coffer-upload-explain-'));
const file = path.join(dir, `coffer-${files}.db`);
try {
  mkdirSync(dir, { recursive: true });
  const fresh = !existsSync(file);
  const database = new DatabaseSync(file);
  const captured: CompiledQuery[] = [];
  const logged = new Kysely<DatabaseSchema>({
    dialect: new NodeSqliteDialect({ database, busyTimeoutMs: 5000 }),
    log: (event) => {
      captured.push(event.query);
    },
  });
  if (fresh) {
    database.exec('pragma journal_mode = wal');
    await migrateToLatest(logged);
    await seed(logged);
    database.exec('pragma wal_checkpoint(truncate)');
  }
  // The plans of one create's statements (SQLite shows no trigger's plan: see the test).
  captured.length = 0;
  await new KyselyFileRepository(logged).create(
    {
      id: newId(),
      projectId,
      creatorId: 'many',
      filePath: `plan/${newId()}.txt`,
      permissionScope: 'user',
      uploadExpiresAt: 0,
      customData: null,
      declared: noContract,
    },
    new Date(),
    quotas,
  );
  for (const query of captured) {
    if (/^(begin|commit|savepoint|release|rollback)/i.test(query.sql)) continue;
    const plan = database
      .prepare(`explain query plan ${query.sql}`)
      .all(...(query.parameters as never[]))
      .map((row) => `  ${row.detail}`)
      .join('\n');
    console.log(`${query.sql.replace(/\s+/g, ' ').slice(0, 160)}\n${plan}`);
  }
  await logged.destroy();

  // Timed on the server's own connection (pragmas, checkpoint thread).
  const opened = await openSqliteDatabase({ location: file, busyTimeoutMs: 5000 });
  const repository = new KyselyFileRepository(opened.db);
  // As the bench's upload requests: a run's paths in folders of 1,000.
  const run = newId().slice(0, 6);
  let count = 0;
  const create = (creatorId: string) =>
    repository.create(
      {
        id: fileId(),
        projectId,
        creatorId,
        filePath: `bench/${run}/${Math.floor(count / 1000)}/${count++}.txt`,
        permissionScope: 'user',
        uploadExpiresAt: Math.floor(Date.now() / 1000) + 3600,
        customData: null,
        declared: noContract,
      },
      new Date(),
      quotas,
    );
  for (const creator of ['many', 'new-user']) {
    const alone: number[] = [];
    let cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      await create(creator);
      alone.push(performance.now() - started);
    }
    report(`${creator}, one at a time`, alone, process.cpuUsage(cpu), requests);
    const batched: number[] = [];
    cpu = process.cpuUsage();
    for (let i = 0; i < requests / 50; i++) {
      const started = performance.now();
      await Promise.all(Array.from({ length: 50 }, () => create(creator)));
      batched.push((performance.now() - started) / 50);
    }
    report(`${creator}, 50 at once (per create)`, batched, process.cpuUsage(cpu), batched.length * 50);
  }
  await opened.close();
} finally {
  if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
}
