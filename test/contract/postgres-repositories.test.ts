import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type ControlledTransaction, sql } from 'kysely';
import type { Database } from '../../src/persistence/database.ts';
import type { DatabaseSchema } from '../../src/persistence/database-schema.ts';
import { migrateToLatest, migrationNames } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { startPostgres } from '../support/postgres-server.ts';
import { runRepositoryContract } from './repositories.contract.ts';
import { at, newFile, newProjectId, T0 } from './repository-fixtures.ts';

const server = await startPostgres();
// Enough connections that concurrent transactions really overlap on the server.
const poolMax = 8;

if (server === undefined) {
  describe('Repositories contract: PostgreSQL', {
    skip: 'PostgreSQL is not installed (apt-get install -y postgresql)',
  }, () => {});
} else {
  after(() => server.stop());
  runRepositoryContract('PostgreSQL (pg, private server)', () =>
    openDatabase({ databaseUrl: server.url, poolMax }),
  );

  describe('PostgreSQL specifics', () => {
    const opened: Database[] = [];
    const open = async (databaseUrl: string, options: { busyTimeoutMs?: number } = {}) => {
      const database = await openDatabase({ databaseUrl, poolMax, ...options });
      opened.push(database);
      return database;
    };
    after(async () => {
      for (const database of opened) await database.close();
    });

    it('migrates once when four nodes start on one new database together', async () => {
      const url = await server.createDatabase();
      const nodes = await Promise.all([1, 2, 3, 4].map(() => open(url)));
      await Promise.all(nodes.map((node) => migrateToLatest(node.db)));
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(nodes[0]!.db);
      assert.deepEqual(
        rows.map((row) => row.name),
        migrationNames,
      );
    });

    it('queues 20 concurrent shares on the file row lock and loses none', async () => {
      const url = await server.createDatabase();
      const database = await open(url);
      await migrateToLatest(database.db);
      const repos = createRepositories(database.db);
      const { file } = await repos.files.create(newFile(await newProjectId(repos)), T0);
      // Hold the file row from another session, so that every share blocks inside its
      // transaction: proof that they run at the same time, on separate connections.
      const holder = await database.db.startTransaction().execute();
      let shares: Promise<unknown>[] = [];
      try {
        await sql`select id from files where id = ${file.id} for update`.execute(holder);
        shares = Array.from({ length: 20 }, (_, i) =>
          repos.files.addAclEntry(file.id, { scope: 'user', identifier: `u${i}` }, at(i)),
        );
        // Watched from a connection of its own: the pool is busy, and pg_stat_activity is a
        // snapshot per transaction.
        const monitor = await open(url);
        const waiting = await waitFor(async () => {
          const { rows } = await sql<{ waiting: number }>`
            select count(*) as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(monitor.db);
          return rows[0]!.waiting >= poolMax - 1 ? rows[0]!.waiting : undefined;
        });
        assert.equal(waiting, poolMax - 1);
      } finally {
        await holder.commit().execute();
        await Promise.all(shares);
      }
      const after = await repos.files.findById(file.id);
      assert.equal(after?.version, 20);
      assert.equal(after?.acl.length, 21);
      const { rows } = await sql<{ position: number }>`
        select position from file_acl where file_id = ${file.id} order by position`.execute(database.db);
      assert.deepEqual(
        rows.map((row) => row.position),
        Array.from({ length: 21 }, (_, i) => i),
      );
    });

    it('answers UNAVAILABLE when the server cannot be reached', async () => {
      const unreachable = new URL(server.url);
      unreachable.port = '1';
      const database = await open(unreachable.toString(), { busyTimeoutMs: 1000 });
      await assert.rejects(database.check(), { code: 'UNAVAILABLE' });
      await assert.rejects(createRepositories(database.db).files.findById('x'), { code: 'UNAVAILABLE' });
    });

    it('answers UNAVAILABLE when the pool stays exhausted past the timeout', async () => {
      const database = await open(server.url, { busyTimeoutMs: 300 });
      const held: ControlledTransaction<DatabaseSchema>[] = [];
      try {
        // Fill the pool one connection at a time. On a busy machine a new connection may take
        // longer than the 300 ms timeout: that attempt holds nothing, so try again.
        for (let attempt = 1; held.length < poolMax; attempt++) {
          assert.ok(attempt <= 100, 'the pool could not be filled');
          const trx = await database.db
            .startTransaction()
            .execute()
            .catch((error: unknown) => {
              if ((error as { code?: unknown }).code !== 'UNAVAILABLE') throw error;
              return undefined;
            });
          if (trx) held.push(trx);
        }
        // Every connection is held until the check gives up: it must, whatever the load.
        await assert.rejects(database.check(), { code: 'UNAVAILABLE' });
      } finally {
        // Never leave a connection checked out: the pool would wait for it on close, forever.
        await Promise.all(held.map((trx) => trx.rollback().execute()));
      }
      await database.check();
    });

    it('survives a connection that dies while checked out, and answers UNAVAILABLE for it', async () => {
      const database = await open(server.url);
      const trx = await database.db.startTransaction().execute();
      try {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        const monitor = await open(server.url);
        // The server ends the session between two statements of a transaction, as a restart
        // or a failover does: pg reports it as an 'error' event of the checked-out client.
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(monitor.db);
        await assert.rejects(sql`select 1`.execute(trx), { code: 'UNAVAILABLE' });
      } finally {
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      }
      await database.check(); // on a new connection: the dead one left the pool
    });
  });
}

/** Polls until probe answers; the deadline only ends a hang (a busy machine is slow, not wrong). */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
