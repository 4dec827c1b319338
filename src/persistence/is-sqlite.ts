import { type Kysely, SqliteAdapter } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';

/** Whether the handle speaks SQLite (the listing and browse queries differ by dialect). */
export function isSqlite(db: Kysely<DatabaseSchema>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
