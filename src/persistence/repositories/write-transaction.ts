import type { ControlledTransaction, Kysely } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';

/**
 * Runs `work` in one transaction and commits, unless `work` rolled it back itself (how a
 * no-op such as a duplicate share undoes its version bump without failing). On SQLite the
 * transaction starts with BEGIN IMMEDIATE (see node-sqlite-dialect.ts), so every transaction
 * here holds the write lock from its first statement.
 */
export async function writeTransaction<T>(
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
