import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Per-project settings (domain/identity/project-settings.ts) as one JSON object: a new setting
 * needs no migration, and '{}' means every default. Updating it bumps the access epoch (the
 * projects trigger), so every process and node sees a change within the epoch's re-read.
 */
export const projectSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('projects')
      .addColumn('settings', 'text', (col) => col.notNull().defaultTo('{}'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('projects').dropColumn('settings').execute();
  },
};
