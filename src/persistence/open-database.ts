import path from 'node:path';
import type { Database } from './database.ts';

export type OpenDatabaseOptions = {
  /** `sqlite:<path>` (relative to the working directory), `sqlite::memory:`, `postgres://…` or `postgresql://…`. */
  databaseUrl: string;
  /** Only for an empty databaseUrl, which means `sqlite:<dataDir>/coffer.db` (dataDir default `./data`). */
  dataDir?: string;
  /** PostgreSQL connections in this process's pool (default 10). */
  poolMax?: number;
  /** PostgreSQL: recurring statements as named prepared statements (default true). */
  preparedStatements?: boolean;
  /**
   * How long to wait for the database before failing with UNAVAILABLE: SQLite's write lock,
   * or a PostgreSQL connection from the pool (default 5000).
   */
  busyTimeoutMs?: number;
};

/** Opens the store the URL names. Run migrateToLatest(database.db) before using the tables. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const databaseUrl = options.databaseUrl || `sqlite:${path.join(options.dataDir ?? './data', 'coffer.db')}`;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  // Each driver loads only for its own URL: a SQLite command never loads pg (nor PostgreSQL node:sqlite).
  if (databaseUrl.startsWith('sqlite:')) {
    const { openSqliteDatabase } = await import('./open-sqlite-database.ts');
    return openSqliteDatabase({
      location: databaseUrl.slice('sqlite:'.length),
      busyTimeoutMs,
    });
  }
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    const { openPostgresDatabase } = await import('./open-postgres-database.ts');
    return openPostgresDatabase({
      connectionString: databaseUrl,
      poolMax: options.poolMax ?? 10,
      preparedStatements: options.preparedStatements ?? true,
      busyTimeoutMs,
    });
  }
  // Only the scheme: the rest may hold a password.
  throw new Error(
    `COFFER_DATABASE_URL: unsupported database ${JSON.stringify(databaseUrl.split(':')[0])} (use sqlite: or postgres://)`,
  );
}
