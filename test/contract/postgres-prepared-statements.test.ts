import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { preparedStatementLimits } from '../../src/persistence/prepared-statements.ts';
import { findFileById } from '../../src/persistence/repositories/files/file-rows.ts';
import { startPostgres } from '../support/postgres-server.ts';

const server = await startPostgres();

/** The named statements of the session the query runs on (poolMax 1: always the same one). */
async function preparedNames(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(database.db);
  return rows.map((row) => row.name).filter((name) => name.startsWith('coffer_'));
}

async function backendPid(database: Database): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
  return rows[0]!.pid;
}

describe('PostgreSQL prepared statements', { skip: server ? false : 'PostgreSQL is not installed' }, () => {
  const opened: Database[] = [];
  const open = async (preparedStatements: boolean) => {
    const database = await openDatabase({
      databaseUrl: await server!.createDatabase(),
      poolMax: 1,
      preparedStatements,
    });
    opened.push(database);
    await migrateToLatest(database.db);
    return database;
  };
  after(async () => {
    for (const database of opened) await database.close();
    await server?.stop();
  });

  it('runs a recurring statement under a name, parsed once per connection; never when turned off', async () => {
    const [on, off] = [await open(true), await open(false)];
    const before = await preparedNames(on); // the migrations' own recurring statements
    for (const database of [on, off]) {
      for (let run = 0; run < preparedStatementLimits.recurringAfter + 2; run++) {
        assert.equal(await findFileById(database.db, 'no-such-file'), undefined);
      }
    }
    const added = (await preparedNames(on)).filter((name) => !before.includes(name));
    assert.equal(added.length, 1, 'the hot-path read is prepared once');
    assert.deepEqual(await preparedNames(off), []);
  });

  it('prepares at most a bounded number of statements per connection', async () => {
    const database = await open(true);
    const distinct = preparedStatementLimits.maxPerConnection + 20;
    for (let shape = 0; shape < distinct; shape++) {
      for (let run = 0; run < preparedStatementLimits.recurringAfter; run++) {
        await sql`select ${sql.lit(shape)} + ${run}::int as n`.execute(database.db);
      }
    }
    assert.equal((await preparedNames(database)).length, preparedStatementLimits.maxPerConnection);
  });

  it('closes a connection whose prepared statements the server lost; the next query runs on a new one', async () => {
    const database = await open(true);
    for (let run = 0; run < preparedStatementLimits.recurringAfter + 1; run++) {
      await findFileById(database.db, 'no-such-file');
    }
    const pidBefore = await backendPid(database);
    // What a pooler in transaction mode or a DEALLOCATE does: the session forgets its statements.
    await sql`deallocate all`.execute(database.db);
    await assert.rejects(findFileById(database.db, 'no-such-file'), { code: '26000' });
    assert.equal(await findFileById(database.db, 'no-such-file'), undefined);
    assert.notEqual(await backendPid(database), pidBefore, 'the connection that lost them was closed');
  });
});
