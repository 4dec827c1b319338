import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import type { DatabaseSchema } from './database-schema.ts';
import { toUnavailableTranslatingPool } from './unavailable-translating-pool.ts';
import { watchWrites } from './watched-dialect.ts';
import { registerWriteWatch, WriteWatch } from './write-watch.ts';

const int8Oid = 20;

/** Opens a pool to a PostgreSQL server; every API node holds one. */
export async function openPostgresDatabase(options: {
  connectionString: string;
  poolMax: number;
  busyTimeoutMs: number;
  preparedStatements: boolean;
}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolMax,
    // An exhausted pool or an unreachable server answers UNAVAILABLE instead of hanging.
    connectionTimeoutMillis: options.busyTimeoutMs,
    types: {
      // Timestamps are Unix milliseconds in bigint columns (and count(*) is bigint): both fit
      // a JS number exactly, so read int8 as number instead of pg's default string.
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8Oid ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A client whose server goes away (a restart, `pg_ctl stop -m immediate`, a cut network)
  // emits 'error'; unhandled, that would crash the process. Idle in the pool, the pool
  // re-emits it and drops the client. Checked out (in a transaction, mid-query), pg-pool
  // listens no more: the client needs its own listener. Its query fails (UNAVAILABLE, below)
  // and the pool drops it on release, since it is no longer queryable; the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const writes = new WriteWatch();
  const db = new Kysely<DatabaseSchema>({
    dialect: watchWrites(
      new PostgresDialect({
        pool: toUnavailableTranslatingPool(pool, { preparedStatements: options.preparedStatements }),
      }),
      writes,
    ),
  });
  registerWriteWatch(db, writes);
  return {
    db,
    dialect: 'postgres',
    writes,
    close: () => db.destroy(),
    check: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
