import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Config } from '../config/config.ts';
import {
  migrationNames,
  migrationProvider,
  newerReleaseError,
} from '../persistence/migrations/migrate-to-latest.ts';
import { migrationSafety } from '../persistence/migrations/migration-safety.ts';
import { openDatabase } from '../persistence/open-database.ts';
import { toSqliteFile } from './local-paths.ts';

export type PendingMigration = { name: string; kind: 'expand' | 'contract'; reason: string };

/**
 * `coffer migrate --dry-run`: the migrations this release would run on the database, each with
 * whether nodes of the previous release may keep serving beside it (migration-safety.ts).
 * Reads only: an embedded database that does not exist yet is not created (all are pending).
 */
export async function listPendingMigrations(config: Config): Promise<PendingMigration[]> {
  const sqliteFile = toSqliteFile(config);
  let pending = migrationNames;
  if (!sqliteFile || existsSync(sqliteFile)) {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      poolMax: 1,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
    });
    try {
      // Kysely lists only the migrations it was given: one a newer release ran is read here.
      const executed = await sql<{ name: string }>`select name from kysely_migration`
        .execute(database.db)
        .then(
          ({ rows }) => rows.map((row) => row.name),
          () => [],
        );
      const unknown = executed.find((name) => !migrationNames.includes(name));
      if (unknown !== undefined) throw newerReleaseError(unknown);
      const migrations = await new Migrator({ db: database.db, provider: migrationProvider }).getMigrations();
      pending = migrations.filter((migration) => migration.executedAt === undefined).map(({ name }) => name);
    } finally {
      await database.close();
    }
  }
  return pending.map((name) => {
    const safety = migrationSafety[name] ?? { kind: 'contract', reason: 'not classified: treat as contract' };
    return { name, ...safety };
  });
}

/** The dry run as text: one line per pending migration, then what a rolling upgrade may do. */
export function toPendingText(pending: PendingMigration[]): string {
  if (pending.length === 0) return 'No migration is pending: the database schema is up to date.';
  const lines = pending.map(
    ({ name, kind, reason }) =>
      `  ${name.padEnd(36)} ${kind === 'expand' ? 'expand  ' : 'CONTRACT'} ${reason}`,
  );
  const contracts = pending.filter(({ kind }) => kind === 'contract').length;
  const verdict =
    contracts === 0
      ? 'Every pending migration is an expand: nodes of the previous release may keep serving while it runs (a rolling upgrade).'
      : `${contracts} pending migration(s) are CONTRACT: stop every node of the older release before migrating (docs/deploy.md, "Upgrading").`;
  return [`${pending.length} pending migration(s), in the order they run:`, ...lines, verdict].join('\n');
}
