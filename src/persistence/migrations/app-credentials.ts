import { type Kysely, type QueryExecutorProvider, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Changes every process must see at its next epoch read. A new app credential needs no bump
 * (a miss is never cached); a new signing key does (each process holds the list of keys).
 */
const watchedEvents = {
  app_credentials: ['update', 'delete'],
  signing_keys: ['insert', 'update', 'delete'],
} as const;

/**
 * App credentials in a table of their own, so a project can hold several live ones during a
 * rotation (`coffer app create | revoke`). The pair in `projects.app_id / app_secret_hash`
 * stays as the project's first credential and is copied here; from now on only this table
 * is read. Revoking that first credential blanks `projects.app_secret_hash`, so an import of
 * an older export (copyLegacyAppCredentials) never brings a revoked credential back.
 *
 * Inserting, changing or deleting an app credential or a signing key bumps the access epoch
 * (migrations/access-epoch.ts): a revoke is refused, and a new signing key known, by every
 * process and node at its next epoch read.
 */
export const appCredentials: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_credentials')
      .addColumn('app_id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('secret_hash', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('app_credentials_project_idx')
      .on('app_credentials')
      .column('project_id')
      .execute();
    await copyLegacyAppCredentials(db);
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    for (const [table, events] of Object.entries(watchedEvents)) {
      if (sqlite) {
        for (const event of events) {
          await sql`create trigger ${sql.raw(`${table}_${event}_access_epoch`)} after ${sql.raw(event)} on ${sql.table(table)}
            begin update access_epoch set value = value + 1 where id = 1; end`.execute(db);
        }
      } else {
        await sql`create trigger ${sql.raw(`${table}_access_epoch`)} after ${sql.raw(events.join(' or '))} on ${sql.table(table)}
          for each statement execute function bump_access_epoch()`.execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const event of watchedEvents.signing_keys)
        await sql`drop trigger ${sql.raw(`signing_keys_${event}_access_epoch`)}`.execute(db);
    } else {
      await sql`drop trigger signing_keys_access_epoch on signing_keys`.execute(db);
    }
    // The app_credentials triggers go with their table.
    await db.schema.dropTable('app_credentials').execute();
  },
};

/**
 * Gives each project that has no app credential its first pair from `projects`, unless that
 * pair was revoked (blank hash): the migration, and `coffer import` of an export written
 * before app_credentials existed.
 */
export async function copyLegacyAppCredentials(db: QueryExecutorProvider): Promise<void> {
  await sql`
    insert into app_credentials (app_id, project_id, secret_hash, created_at)
    select p.app_id, p.id, p.app_secret_hash, p.created_at from projects p
    where p.app_secret_hash <> ''
      and not exists (select 1 from app_credentials c where c.project_id = p.id)`.execute(db);
}
