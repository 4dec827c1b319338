import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest, migrationNames } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { waitFor } from '../support/resource-usage.ts';
import { runRepositoryContract } from './repositories.contract.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

const dir = await mkdtemp(join(tmpdir(), 'coffer-sqlite-'));
after(() => rm(dir, { recursive: true, force: true }));
let databases = 0;
const freshUrl = () => `sqlite:${join(dir, `db-${++databases}`, 'coffer.db')}`;

runRepositoryContract('SQLite (node:sqlite, file in a temp dir)', () =>
  openDatabase({ databaseUrl: `sqlite:${join(dir, 'contract', 'coffer.db')}` }),
);

const writerScript = fileURLToPath(new URL('../support/sqlite-writer-process.ts', import.meta.url));
const runWriter = (...args: string[]) => promisify(execFile)(process.execPath, [writerScript, ...args]);

async function withDatabase<T>(url: string, work: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

describe('SQLite specifics', () => {
  it('opens with WAL, synchronous=NORMAL, foreign keys and the busy timeout', async () => {
    const database = await openDatabase({ databaseUrl: freshUrl(), busyTimeoutMs: 1234 });
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
    assert.equal(await pragma('journal_mode'), 'wal');
    assert.equal(await pragma('synchronous'), 1); // NORMAL
    assert.equal(await pragma('foreign_keys'), 1);
    assert.equal(await pragma('busy_timeout'), 1234);
    assert.equal(database.dialect, 'sqlite');
    await database.close();
  });

  it('checkpoints the WAL on its own thread, with autocheckpoint off on the request connection', async () => {
    const url = freshUrl();
    const file = url.slice('sqlite:'.length);
    await withDatabase(url, async (database) => {
      await migrateToLatest(database.db);
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
      assert.equal(await pragma('wal_autocheckpoint'), 0);
      const before = statSync(file).size;
      const repos = createRepositories(database.db);
      const projectId = await newProjectId(repos);
      for (let index = 0; index < 300; index++) await repos.files.create(newFile(projectId), T0);
      // Only a checkpoint writes pages into the database file itself; this connection never does.
      await waitFor(() => statSync(file).size > before, 'the database file to grow by a checkpoint');
    });
  });

  it('resolves a relative path against the working directory and creates its parent dirs', async () => {
    const target = join(dir, 'nested', 'deeper', 'coffer.db');
    await withDatabase(`sqlite:${relative(process.cwd(), target)}`, (database) => database.check());
    assert.ok(existsSync(target));
  });

  it('runs in memory with sqlite::memory:', async () => {
    await withDatabase('sqlite::memory:', async (database) => {
      await migrateToLatest(database.db);
      assert.equal(typeof (await newProjectId(createRepositories(database.db))), 'string');
    });
  });

  it('refuses other URLs without echoing them', async () => {
    await assert.rejects(openDatabase({ databaseUrl: 'mysql://root:secret@db/coffer' }), (error: Error) => {
      assert.match(error.message, /"mysql"/);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    });
  });

  it('migrates once when two handles and four processes start on one new file together', async () => {
    const url = freshUrl();
    const [first, second] = [
      await openDatabase({ databaseUrl: url }),
      await openDatabase({ databaseUrl: url }),
    ];
    await Promise.all([migrateToLatest(first.db), migrateToLatest(second.db)]);
    await Promise.all([first.close(), second.close()]);
    const other = freshUrl();
    await Promise.all([1, 2, 3, 4].map(() => runWriter('migrate', other)));
    await withDatabase(other, async (database) => {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
      assert.deepEqual(
        rows.map((row) => row.name),
        migrationNames,
      );
    });
  });

  it('loses no share when two processes write one file concurrently (BEGIN IMMEDIATE + busy wait)', async () => {
    const url = freshUrl();
    const file = await withDatabase(url, async (database) => {
      await migrateToLatest(database.db);
      const repos = createRepositories(database.db);
      return (await repos.files.create(newFile(await newProjectId(repos)), T0)).file;
    });
    await Promise.all([
      runWriter('share', url, file.id, 'one', '25'),
      runWriter('share', url, file.id, 'two', '25'),
    ]);
    const after = await withDatabase(url, (database) =>
      createRepositories(database.db).files.findById(file.id),
    );
    assert.equal(after?.version, 50);
    assert.equal(after?.acl.length, 51);
  });

  it('answers UNAVAILABLE when another connection keeps the write lock past the busy timeout', async () => {
    const url = freshUrl();
    const database = await openDatabase({ databaseUrl: url, busyTimeoutMs: 150 });
    await migrateToLatest(database.db);
    const repos = createRepositories(database.db);
    const projectId = await newProjectId(repos);
    const user = await repos.users.create({
      ...{ id: 'u1', projectId, email: 'a@example.com', passwordHash: 'h', role: 'user' },
      ...{ displayName: 'A', enabled: true },
    });
    const { file } = await repos.files.create(newFile(projectId), T0);
    const holder = new DatabaseSync(url.slice('sqlite:'.length));
    holder.exec('begin immediate');
    try {
      const started = Date.now();
      // A transaction (waits asynchronously) and a single statement (SQLite's busy handler).
      await assert.rejects(repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'x' }, T0), {
        code: 'UNAVAILABLE',
      });
      await assert.rejects(repos.users.setRole(projectId, user.id, 'admin'), { code: 'UNAVAILABLE' });
      assert.ok(Date.now() - started >= 250);
      // WAL: readers are not blocked by the writer.
      assert.equal((await repos.files.findById(file.id))?.version, 0);
    } finally {
      holder.exec('rollback');
      holder.close();
    }
    // The handle is still usable once the lock is gone.
    assert.equal(
      (await repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'x' }, T0))?.version,
      1,
    );
    await database.close();
  });
});
