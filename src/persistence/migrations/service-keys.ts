import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Service keys (issue 35): a project's server-only admin credentials, found by the SHA-256 of
 * the key. Changing or deleting one bumps the access epoch (migrations/access-epoch.ts), so a
 * revoked key is refused by every process and node at its next epoch read; a new key needs no
 * bump (a miss is never cached).
 */
export const serviceKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('service_keys')
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('service_keys_pk', ['project_id', 'name'])
      .execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const event of ['update', 'delete']) {
        await sql`create trigger ${sql.raw(`service_keys_${event}_access_epoch`)} after ${sql.raw(event)} on service_keys
          begin update access_epoch set value = value + 1 where id = 1; end`.execute(db);
      }
    } else {
      await sql`create trigger service_keys_access_epoch after update or delete on service_keys
        for each statement execute function bump_access_epoch()`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    // Its triggers go with the table.
    await db.schema.dropTable('service_keys').execute();
  },
};
