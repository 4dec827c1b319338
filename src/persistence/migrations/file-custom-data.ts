import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * customData (issue 10, item 8): an app's own JSON object on a file, at most 4 KiB, stored as
 * text (the same on SQLite and PostgreSQL; Coffer never queries inside it). NULL: never set,
 * which is every record written before this migration.
 */
export const fileCustomData: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('custom_data', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('files').dropColumn('custom_data').execute();
  },
};
