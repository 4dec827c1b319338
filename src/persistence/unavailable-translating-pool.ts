import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { storageFull, unavailable } from '../errors/errors.ts';
import { isPostgresDiskFull, isPostgresUnavailable } from './database-errors.ts';
import { ConnectionStatements, losesPreparedStatements, RecurringStatements } from './prepared-statements.ts';

/**
 * The pool as Kysely's PostgresDialect sees it, with lost connections, exhausted pools and
 * lock contention turned into UNAVAILABLE (503) at the one place every query passes through.
 * Other errors (a unique violation, a bug) stay as they are for the repositories to judge.
 * Recurring statements run as named prepared statements unless `preparedStatements` is false
 * (prepared-statements.ts).
 */
export function toUnavailableTranslatingPool(
  pool: pg.Pool,
  options: { preparedStatements: boolean } = { preparedStatements: true },
): PostgresPool {
  // Kysely keys its per-connection state by client object, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const recurring = options.preparedStatements ? new RecurringStatements() : undefined;
  return {
    Client: pg.Client,
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect().catch(rethrowTranslated);
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrapClient(client, recurring);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
  };
}

function wrapClient(client: pg.PoolClient, recurring: RecurringStatements | undefined): PostgresPoolClient {
  const statements = new ConnectionStatements();
  let lostStatements = false;
  const translate = (error: unknown): never => {
    lostStatements ||= losesPreparedStatements(error);
    return rethrowTranslated(error);
  };
  return {
    get processID() {
      return (client as { processID?: number }).processID;
    },
    release: (destroy?: boolean) => client.release(destroy || lostStatements),
    query: ((...args: unknown[]) => {
      const [text, values] = args;
      const named =
        recurring && args.length === 2 && typeof text === 'string' && Array.isArray(values)
          ? { name: statements.nameFor(text, recurring), text, values }
          : undefined;
      const result: unknown =
        named?.name === undefined ? Reflect.apply(client.query, client, args) : client.query(named);
      // A cursor query returns the cursor itself, not a promise.
      return result instanceof Promise ? result.catch(translate) : result;
    }) as PostgresPoolClient['query'],
  };
}

function rethrowTranslated(error: unknown): never {
  if (isPostgresDiskFull(error)) throw storageFull('database', error);
  throw isPostgresUnavailable(error) ? unavailable('database', error) : error;
}
