import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { storageFull, unavailable } from '../errors/errors.ts';
import { isPostgresDiskFull, isPostgresUnavailable } from './database-errors.ts';

/**
 * The pool as Kysely's PostgresDialect sees it, with lost connections, exhausted pools and
 * lock contention turned into UNAVAILABLE (503) at the one place every query passes through.
 * Other errors (a unique violation, a bug) stay as they are for the repositories to judge.
 */
export function toUnavailableTranslatingPool(pool: pg.Pool): PostgresPool {
  // Kysely keys its per-connection state by client object, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    Client: pg.Client,
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect().catch(rethrowTranslated);
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrapClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
  };
}

function wrapClient(client: pg.PoolClient): PostgresPoolClient {
  return {
    get processID() {
      return (client as { processID?: number }).processID;
    },
    release: (destroy?: boolean) => client.release(destroy),
    query: ((...args: unknown[]) => {
      const result: unknown = Reflect.apply(client.query, client, args);
      // A cursor query returns the cursor itself, not a promise.
      return result instanceof Promise ? result.catch(rethrowTranslated) : result;
    }) as PostgresPoolClient['query'],
  };
}

function rethrowTranslated(error: unknown): never {
  if (isPostgresDiskFull(error)) throw storageFull('database', error);
  throw isPostgresUnavailable(error) ? unavailable('database', error) : error;
}
