import { type Kysely, sql } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema } from './database-schema.ts';

/**
 * Runs `work` with a handle whose every read sees one snapshot of the whole database, while
 * other processes keep writing: what `coffer export` reads, so no row refers to a row the
 * export does not hold. Nothing is written through it. Keep `work` short: a snapshot held
 * open keeps what it sees from being reclaimed (see below).
 */
export async function withReadSnapshot<T>(
  database: Database,
  work: (snapshot: Kysely<DatabaseSchema>) => Promise<T>,
): Promise<T> {
  if (database.dialect === 'postgres')
    // REPEATABLE READ takes its snapshot at the first statement and keeps it to the end; READ
    // ONLY makes a stray write fail instead of conflicting. Meanwhile VACUUM keeps every row
    // version the snapshot may see (the transaction holds back the xmin horizon).
    return database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(work);
  // SQLite: Kysely's transactions here begin IMMEDIATE (the write lock, node-sqlite-dialect.ts),
  // which would stop the server's writes for the whole read. A deferred BEGIN is a WAL read
  // transaction instead: its snapshot is fixed at its first SELECT, writers keep committing to
  // the WAL, and checkpoints copy back only the frames before it (the WAL grows meanwhile and
  // restarts once it ends). The one connection is held for the duration.
  return database.db.connection().execute(async (connection) => {
    await sql`begin deferred`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`rollback`.execute(connection);
    }
  });
}
