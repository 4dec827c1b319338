/**
 * Kysely over Node's built-in `node:sqlite` (DatabaseSync). Kysely's SqliteDialect expects a
 * better-sqlite3-like database, so this file adapts DatabaseSync to that shape and adjusts
 * the driver and adapter where Coffer needs other behaviour.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type SqliteStatement,
} from 'kysely';
import { isAppError } from '../errors/app-error.ts';
import { storageFull, unavailable } from '../errors/errors.ts';
import { isSqliteBusy, isSqliteFull } from './database-errors.ts';

export type NodeSqliteDialectConfig = {
  /** An open database; Kysely's destroy() closes it. */
  database: DatabaseSync;
  /** How long a write transaction waits for another connection's write lock. */
  busyTimeoutMs: number;
};

export class NodeSqliteDialect implements Dialect {
  readonly #config: NodeSqliteDialectConfig;

  constructor(config: NodeSqliteDialectConfig) {
    this.#config = config;
  }

  createDriver(): Driver {
    return new NodeSqliteDriver(this.#config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new NodeSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** SQLite does run DDL inside transactions; saying so lets migrations run in one (see migrate-to-latest.ts). */
export class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class NodeSqliteDriver extends SqliteDriver {
  readonly #database: DatabaseSync;
  readonly #busyTimeoutMs: number;

  constructor(config: NodeSqliteDialectConfig) {
    super({ database: toSqliteDatabase(config.database) });
    this.#database = config.database;
    this.#busyTimeoutMs = config.busyTimeoutMs;
  }

  /**
   * Every transaction here is a write transaction, and it takes the write lock up front:
   * a deferred BEGIN that reads first and writes later can fail with SQLITE_BUSY without
   * waiting when another connection committed in between (two processes upgrading their
   * locks), while BEGIN IMMEDIATE simply waits its turn.
   *
   * The wait is an async retry rather than SQLite's busy handler, which would block this
   * thread: a second handle in the same process (a test, the CLI run in-process) could then
   * never commit the transaction we wait for. After busyTimeoutMs the caller gets UNAVAILABLE.
   * Kysely serializes this single connection (the adapter allows no second one), so no other
   * query sees busy_timeout = 0 meanwhile.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + this.#busyTimeoutMs;
    this.#database.exec('pragma busy_timeout = 0');
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await connection.executeQuery(CompiledQuery.raw('begin immediate'));
          return;
        } catch (error) {
          const remainingMs = deadline - Date.now();
          if (!isBusyError(error) || remainingMs <= 0) throw error;
          await sleep(Math.min(2 ** attempt, 20, remainingMs));
        }
      }
    } finally {
      this.#database.exec(`pragma busy_timeout = ${this.#busyTimeoutMs}`);
    }
  }
}

function isBusyError(error: unknown): boolean {
  return isAppError(error) && error.code === 'UNAVAILABLE';
}

/**
 * The better-sqlite3 shape Kysely needs. Statements are cached per SQL text (Kysely prepares
 * every query; re-preparing made findById 2.5x slower, ~125 vs ~50 µs). SQLITE_BUSY that outlasts
 * busy_timeout surfaces as UNAVAILABLE (503) and SQLITE_FULL as STORAGE_FULL (507), never as
 * a generic error.
 */
function toSqliteDatabase(database: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = toSqliteStatement(guard(() => database.prepare(sql)));
        if (cache.size >= 500) cache.clear();
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

function toSqliteStatement(statement: StatementSync): SqliteStatement {
  type Params = Parameters<StatementSync['all']>;
  return {
    // A statement returns rows when it has result columns (SELECT, RETURNING, most PRAGMAs).
    reader: statement.columns().length > 0,
    all: (parameters) => guard(() => statement.all(...(parameters as Params))),
    run: (parameters) => guard(() => statement.run(...(parameters as Params))),
    iterate: (parameters) => guard(() => statement.iterate(...(parameters as Params))),
  };
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isSqliteBusy(error)) throw unavailable('database', error);
    throw isSqliteFull(error) ? storageFull('database', error) : error;
  }
}
