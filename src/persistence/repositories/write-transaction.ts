import { setTimeout as sleep } from 'node:timers/promises';
import type { ControlledTransaction, Kysely } from 'kysely';
import { isTransactionConflict } from '../database-errors.ts';
import type { DatabaseSchema } from '../database-schema.ts';

/**
 * Runs of a transaction PostgreSQL rolled back as a deadlock's or serialization failure's victim,
 * after the first. A folder move and an upload into its target path can deadlock (each waits for
 * a lock the other holds: folders/folder-range.ts); either victim, run again, meets the other's
 * outcome, a serial one. One still refused after these answers UNAVAILABLE (503), as before.
 */
const conflictRetries = 3;

/** Each retry waits a random 0–10 ms per retry so far: two victims of one another do not meet again at once. */
const backoffStepMs = 10;

/**
 * Runs `work` in one transaction and commits, unless `work` rolled it back itself (how a
 * no-op such as a duplicate share undoes its version bump without failing). On SQLite the
 * transaction starts with BEGIN IMMEDIATE (see node-sqlite-dialect.ts), so every transaction
 * here holds the write lock from its first statement.
 *
 * On PostgreSQL, a transaction chosen as a deadlock's victim (40P01) or failed for
 * serialization (40001) runs again, from its start, up to `conflictRetries` times: so `work`
 * must have no effect outside the transaction (it may compute and return, not consume a stream
 * or change what it was given). Work that cannot run twice passes `{ replayable: false }`.
 */
export async function writeTransaction<T>(
  db: Kysely<DatabaseSchema>,
  work: (trx: ControlledTransaction<DatabaseSchema>) => Promise<T>,
  options: { replayable: boolean } = { replayable: true },
): Promise<T> {
  return retryConflicts(() => runOnce(db, work), options.replayable ? conflictRetries : 0);
}

/**
 * Runs `attempt` again, after a short random wait, while PostgreSQL refuses it as a deadlock's or
 * serialization failure's victim, at most `retries` times: a transaction, or a write that is one
 * statement in autocommit (its own implicit transaction, rolled back whole).
 */
export async function retryConflicts<T>(attempt: () => Promise<T>, retries = conflictRetries): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry === retries || !isTransactionConflict(error)) throw error;
      await sleep(Math.random() * backoffStepMs * (retry + 1));
    }
  }
}

async function runOnce<T>(
  db: Kysely<DatabaseSchema>,
  work: (trx: ControlledTransaction<DatabaseSchema>) => Promise<T>,
): Promise<T> {
  const trx = await db.startTransaction().execute();
  try {
    const result = await work(trx);
    if (!trx.isRolledBack) await trx.commit().execute();
    return result;
  } catch (error) {
    if (!trx.isCommitted && !trx.isRolledBack) {
      // The connection may be gone; the error that got us here is the one to report.
      await trx
        .rollback()
        .execute()
        .catch(() => {});
    }
    throw error;
  }
}
