import { after } from 'node:test';
import type { Database } from '../../src/persistence/database.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { startPostgres } from './postgres-server.ts';

export type DatabaseStore = [name: string, open: () => Promise<Database>];

/**
 * SQLite in memory, and PostgreSQL when it is installed (a private server, stopped after the
 * file's tests): for a test that runs the same checks on both dialects.
 */
export async function databaseStores(): Promise<DatabaseStore[]> {
  const postgres = await startPostgres();
  after(() => postgres?.stop());
  const stores: DatabaseStore[] = [['SQLite', () => openDatabase({ databaseUrl: 'sqlite::memory:' })]];
  if (postgres)
    stores.push(['PostgreSQL', async () => openDatabase({ databaseUrl: await postgres.createDatabase() })]);
  return stores;
}
