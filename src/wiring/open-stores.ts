import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/config.ts';
import type { Database } from '../persistence/database.ts';
import { migrateToLatest, NewerReleaseError } from '../persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../persistence/open-database.ts';
import { createRepositories, type Repositories } from '../persistence/repositories/create-repositories.ts';

/**
 * Opens and migrates the database. An unreachable database (a PostgreSQL still starting, a
 * network blip) is retried with a log line per attempt until databaseStartTimeoutSeconds.
 */
export async function openStores(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<{ database: Database; repositories: Repositories }> {
  const deadline = Date.now() + config.databaseStartTimeoutSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      poolMax: config.databasePoolMax,
      preparedStatements: config.databasePreparedStatements,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
    });
    try {
      await migrateToLatest(database.db);
      return { database, repositories: createRepositories(database.db) };
    } catch (error) {
      await database.close().catch(() => {});
      if (error instanceof NewerReleaseError) throw error;
      const waitMs = Math.min(5000, 500 * attempt);
      if (Date.now() + waitMs > deadline) throw error;
      log(
        `database not reachable yet (attempt ${attempt}: ${(error as Error).message}); retrying in ${waitMs} ms`,
      );
      await sleep(waitMs);
    }
  }
}
