import { rmSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';

/**
 * Migrates the database at the URL to the latest schema, as a server's start does, and closes
 * it: a template that test servers' databases are copied from (issue 44, item 7).
 */
export async function migrateInto(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * Puts a migrated SQLite database at `file`: a copy of the one the run migrated once
 * (COFFER_TEST_SQLITE_TEMPLATE, set by scripts/run-tests.js), else of one this process migrated
 * once. Running the migrations was a test server's second cost (0.1-0.2 s of CPU and more in
 * fsyncs, per server), then about 0.5 s per test process; the server still runs
 * migrateToLatest on start, which finds nothing to do.
 */
export async function copyMigratedSqlite(file: string): Promise<void> {
  const runTemplate = process.env.COFFER_TEST_SQLITE_TEMPLATE;
  sqliteTemplate ??= runTemplate ? Promise.resolve(runTemplate) : migratedSqliteFile();
  await copyFile(await sqliteTemplate, file);
}

/** A migrated SQLite database in a folder of its own, removed when this process exits. */
export async function migratedSqliteFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coffer-migrated-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'coffer.db');
  await migrateInto(`sqlite:${file}`);
  return file;
}
