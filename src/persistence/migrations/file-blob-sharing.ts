import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Copies share bytes (issue 10, item 9): blob versions never change, so a copy names the
 * version it serves and the file whose storage key holds it (`blob_file_id`; NULL: its own).
 * The index answers "does any record still need this version?" (a delete, the blob collector)
 * from the copies alone; records that are no copy are not in it.
 */
export const fileBlobSharing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('blob_file_id', 'text').execute();
    await db.schema
      .createIndex('files_blob_file_idx')
      .on('files')
      .columns(['blob_file_id', 'blob_version'])
      .where(sql.ref('blob_file_id'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_blob_file_idx').execute();
    await db.schema.alterTable('files').dropColumn('blob_file_id').execute();
  },
};
