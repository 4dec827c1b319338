import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The sweep of expired never-verified records (issue 10, item 11) asks for the unverified
 * files whose upload link expired before a moment, oldest first. A partial index holds only
 * unverified files (few, next to the verified ones), in expiry order: each batch reads its own
 * rows and nothing else, whatever the size of the table.
 */
export const unverifiedExpiryIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('files_unverified_expiry_idx')
      .on('files')
      .columns(['upload_expires_at', 'id'])
      .where(sql.ref('verified'), '=', 0)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_unverified_expiry_idx').execute();
  },
};
