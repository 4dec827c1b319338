import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';
import type { WriteWatch } from './write-watch.ts';

/** An open metadata store: the Kysely handle plus what the process needs to manage it. */
export type Database = {
  db: Kysely<DatabaseSchema>;
  dialect: 'sqlite' | 'postgres';
  /** Writes this process committed (or its sibling workers reported), statements run (write-watch.ts). */
  writes: WriteWatch;
  /** Closes the connection(s); the handle is unusable afterwards. */
  close(): Promise<void>;
  /** Throws (UNAVAILABLE) when the database cannot answer a query (readiness). */
  check(): Promise<void>;
  /** PostgreSQL: the pool's connections (metrics); SQLite has one connection and no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
};
