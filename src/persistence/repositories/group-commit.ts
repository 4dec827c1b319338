import { CompiledQuery, type ControlledTransaction, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import { isSqlite } from '../is-sqlite.ts';
import { writeTransaction } from './write-transaction.ts';

/** Work for one write transaction; it must not roll the transaction back itself (it may share it). */
export type GroupedWork<T> = (trx: Kysely<DatabaseSchema>) => Promise<T>;

/** Runs `work` in a write transaction and answers once that transaction has committed. */
export type TransactionRunner = <T>(work: GroupedWork<T>) => Promise<T>;

/**
 * Most pieces of work one commit carries: a bound on how long the batch holds the write lock
 * (SQLite's is the whole database's) and on the work a failed commit fails at once.
 */
const maxBatchSize = 64;

type Queued = {
  work: GroupedWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite (issue 26, item 3): the writes that arrive in one turn of the event
 * loop (the upload requests its poll phase read) run in one transaction, each in a savepoint
 * of its own, and commit together. An upload request's two inserts cost SQLite less than its
 * BEGIN IMMEDIATE, COMMIT and the WAL frames of the pages every commit rewrites (the files
 * table's indexes, the usage rows): a batch writes each such page once.
 *
 * Nothing is answered before its commit: each piece of work settles after the batch's COMMIT
 * returned (with `synchronous = normal` in WAL mode that commit survives a kill -9 of the
 * process, as a transaction of its own did). A piece that fails is rolled back to its
 * savepoint and fails alone; the others still commit. A failed BEGIN or COMMIT fails them all,
 * and none of them was written. A lone piece runs without a savepoint, as before.
 *
 * PostgreSQL gets a plain transaction per piece: its pool runs them side by side and its WAL
 * writer already flushes concurrent commits together, while a batch would serialize them on
 * one connection, a round trip per statement.
 */
export function groupCommitFor(db: Kysely<DatabaseSchema>): TransactionRunner {
  if (!isSqlite(db)) return (work) => writeTransaction(db, work);
  const group = new GroupCommit(db);
  return (work) => group.run(work);
}

class GroupCommit {
  readonly #db: Kysely<DatabaseSchema>;
  #queue: Queued[] = [];
  #scheduled = false;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  run<T>(work: GroupedWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** After the poll phase: every request it read has queued its work by then. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const batch = this.#queue.splice(0, maxBatchSize);
      if (this.#queue.length > 0) this.#schedule();
      void this.#commit(batch);
    });
  }

  async #commit(batch: Queued[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await writeTransaction(this.#db, (trx) =>
        batch.length === 1 ? runAlone(trx, batch[0]!) : runEachInSavepoint(trx, batch),
      );
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    batch.forEach((queued, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(outcome.error);
    });
  }
}

/** A lone piece: its failure rolls the transaction back, as a transaction of its own would. */
async function runAlone(trx: ControlledTransaction<DatabaseSchema>, queued: Queued): Promise<Outcome[]> {
  return [{ ok: true, value: await queued.work(trx) }];
}

/** Compiled once: Kysely's savepoint builders compiled them anew for every piece. */
const savepoint = CompiledQuery.raw('SAVEPOINT piece');
const releaseSavepoint = CompiledQuery.raw('RELEASE SAVEPOINT piece');
const rollbackToSavepoint = CompiledQuery.raw('ROLLBACK TO SAVEPOINT piece');

async function runEachInSavepoint(
  trx: ControlledTransaction<DatabaseSchema>,
  batch: Queued[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const queued of batch) {
    await trx.executeQuery(savepoint);
    try {
      const value = await queued.work(trx);
      await trx.executeQuery(releaseSavepoint);
      outcomes.push({ ok: true, value });
    } catch (error) {
      // Undoes this piece's writes only; a failure to do so (the connection is gone) fails
      // the whole batch, which then commits nothing.
      await trx.executeQuery(rollbackToSavepoint);
      await trx.executeQuery(releaseSavepoint);
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
