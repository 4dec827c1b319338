import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { WriteWatch } from './write-watch.ts';

/**
 * Statements that change nothing a cache holds. Anything else counts as a write: a false
 * write only costs a cache one more read, a missed one would serve a stale record.
 */
const readOnly = /^\s*(select|pragma|begin|commit|rollback|savepoint|release|set|show|explain)\b/i;
const writeInCte = /\b(insert|update|delete)\b/i;

function isWrite(statement: string): boolean {
  if (readOnly.test(statement)) return false;
  if (/^\s*with\b/i.test(statement)) return writeInCte.test(statement);
  return true;
}

type ConnectionState = { inTransaction: boolean; wrote: boolean };

/**
 * The dialect with every statement counted and every committed write reported to `watch`
 * (write-watch.ts): a statement outside a transaction once it ran, a transaction's writes once
 * it committed (not before: a reader in between would still read, and trust, the old rows).
 * Connections are patched in place, so the driver gets back the very objects it handed out.
 */
export function watchWrites(dialect: Dialect, watch: WriteWatch): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
    createDriver: () => new WatchedDriver(dialect.createDriver(), watch),
  };
}

class WatchedDriver implements Driver {
  readonly #inner: Driver;
  readonly #watch: WriteWatch;
  readonly #states = new WeakMap<DatabaseConnection, ConnectionState>();

  constructor(inner: Driver, watch: WriteWatch) {
    this.#inner = inner;
    this.#watch = watch;
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  init(...args: Parameters<Driver['init']>): Promise<void> {
    return this.#inner.init(...args);
  }

  async acquireConnection(...args: Parameters<Driver['acquireConnection']>): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection(...args);
    if (!this.#states.has(connection)) this.#patch(connection);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.#inner.beginTransaction(connection, settings);
    const state = this.#states.get(connection);
    if (state) Object.assign(state, { inTransaction: true, wrote: false });
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const state = this.#states.get(connection);
    try {
      await this.#inner.commitTransaction(connection);
    } finally {
      // Also when the commit failed: it may have committed before the error reached us.
      if (state?.wrote) this.#watch.wrote();
      if (state) Object.assign(state, { inTransaction: false, wrote: false });
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const state = this.#states.get(connection);
    if (state) Object.assign(state, { inTransaction: false, wrote: false });
    await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(...args: Parameters<Driver['releaseConnection']>): Promise<void> {
    return this.#inner.releaseConnection(...args);
  }

  destroy(...args: Parameters<Driver['destroy']>): Promise<void> {
    return this.#inner.destroy(...args);
  }

  #patch(connection: DatabaseConnection): void {
    const state: ConnectionState = { inTransaction: false, wrote: false };
    this.#states.set(connection, state);
    const watch = this.#watch;
    const executeQuery = connection.executeQuery.bind(connection);
    const streamQuery = connection.streamQuery.bind(connection);
    const observe = (query: CompiledQuery): boolean => {
      watch.statements += 1;
      if (!isWrite(query.sql)) return false;
      if (state.inTransaction) state.wrote = true;
      return !state.inTransaction;
    };
    connection.executeQuery = async <R>(
      query: CompiledQuery,
      ...rest: unknown[]
    ): Promise<QueryResult<R>> => {
      const autocommitWrite = observe(query);
      try {
        return await (executeQuery as (q: CompiledQuery, ...r: unknown[]) => Promise<QueryResult<R>>)(
          query,
          ...rest,
        );
      } finally {
        if (autocommitWrite) watch.wrote();
      }
    };
    connection.streamQuery = <R>(query: CompiledQuery, chunkSize: number, ...rest: unknown[]) => {
      // Streams are reads (listings); a write through one still counts, once it started.
      if (observe(query)) watch.wrote();
      return (
        streamQuery as (q: CompiledQuery, c: number, ...r: unknown[]) => AsyncIterableIterator<QueryResult<R>>
      )(query, chunkSize, ...rest);
    };
  }
}
