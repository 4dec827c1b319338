import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Revoking links (issue 10, item 5): a per-file counter signed into every download link and
 * compared at download, read with the record the download reads anyway. Revoking a file's
 * links or removing an ACL entry adds one. Existing records start at 0, which is also what a
 * link issued before (without a generation) counts as: those links work until the first
 * revocation of their file.
 */
export const fileLinksGeneration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('files')
      .addColumn('links_generation', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('files').dropColumn('links_generation').execute();
  },
};
