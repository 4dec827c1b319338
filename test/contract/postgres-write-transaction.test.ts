import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/persistence/database.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { writeTransaction } from '../../src/persistence/repositories/write-transaction.ts';
import { startPostgres } from '../support/postgres-server.ts';

// writeTransaction on a real PostgreSQL: a deadlock's victim runs again (issue 36, "atomic
// under concurrency": a folder move and an upload into its target path can deadlock), and a
// victim refused every time still answers UNAVAILABLE, as the pool maps it.

const server = await startPostgres();

/** A promise and its resolver: the two transactions meet at it, each holding its first lock. */
function barrier(parties: number) {
  let arrive!: () => void;
  let arrived = 0;
  const all = new Promise<void>((resolve) => {
    arrive = () => {
      if (++arrived === parties) resolve();
    };
  });
  return { arrive, all };
}

describe('writeTransaction on PostgreSQL', { skip: server ? false : 'PostgreSQL is not installed' }, () => {
  let database: Database;
  before(async () => {
    database = await openDatabase({ databaseUrl: await server!.createDatabase(), poolMax: 4 });
    await sql`create table counters (id int primary key, n int not null)`.execute(database.db);
  });
  after(async () => {
    await database?.close();
    await server?.stop();
  });

  const reset = async () => {
    await sql`delete from counters`.execute(database.db);
    await sql`insert into counters values (1, 0), (2, 0)`.execute(database.db);
  };
  const bump = (db: Database['db'], id: number) =>
    sql`update counters set n = n + 1 where id = ${id}`.execute(db);

  /**
   * Two transactions that lock the rows in opposite orders, each waiting (on its first run) until
   * the other holds its first row: PostgreSQL must pick a victim. Answers how often each ran.
   */
  const deadlockingPair = (replayable: boolean) => {
    const met = barrier(2);
    const runs = [0, 0];
    const side = (index: number, first: number, second: number) =>
      writeTransaction(
        database.db,
        async (trx) => {
          runs[index]! += 1;
          await bump(trx, first);
          if (runs[index] === 1) {
            met.arrive();
            await met.all;
          }
          await bump(trx, second);
          return index;
        },
        { replayable },
      );
    return { runs, sides: [side(0, 1, 2), side(1, 2, 1)] };
  };

  it('runs a deadlock victim again: both transactions commit, one of them twice run', async () => {
    await reset();
    const { runs, sides } = deadlockingPair(true);
    assert.deepEqual(await Promise.all(sides), [0, 1]);
    assert.deepEqual(
      [...runs].sort(),
      [1, 2],
      `one side ran once, the victim twice: ${JSON.stringify(runs)}`,
    );
    const { rows } = await sql<{ n: number }>`select n from counters order by id`.execute(database.db);
    assert.deepEqual(
      rows.map((row) => row.n),
      [2, 2],
      'each transaction counted once: the victim left nothing behind',
    );
  });

  it('does not run work that is not replayable again: its victim answers UNAVAILABLE', async () => {
    await reset();
    const { sides } = deadlockingPair(false);
    const outcomes = await Promise.allSettled(sides);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(outcomes));
    const error = (refused[0] as PromiseRejectedResult).reason;
    assert.equal(error.code, 'UNAVAILABLE');
    assert.equal(error.cause.code, '40P01');
  });

  it('answers UNAVAILABLE once the retries are spent, after four runs', async () => {
    let runs = 0;
    await assert.rejects(
      writeTransaction(database.db, async (trx) => {
        runs += 1;
        await sql`do $$ begin raise exception 'refused' using errcode = '40001'; end $$`.execute(trx);
      }),
      (error: { code?: string; cause?: { code?: string } }) =>
        error.code === 'UNAVAILABLE' && error.cause?.code === '40001',
    );
    assert.equal(runs, 4);
  });

  it('does not run work again for any other error', async () => {
    let runs = 0;
    await assert.rejects(
      writeTransaction(database.db, async (trx) => {
        runs += 1;
        await sql`insert into counters values (1, 0), (1, 0)`.execute(trx);
      }),
      { code: '23505' },
    );
    assert.equal(runs, 1);
  });
});
