import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Archives (issue 40): one ZIP of many files, its layout fixed at creation so that every
 * request answers the same bytes (Range resumes). `archive_entries` holds each file's place
 * (its local header's offset and its central header's) and what the file was (blob version,
 * links generation), which the download compares with `files` before any byte. The entries
 * go with their archive (cascade); archives go a few at a time once expired (at creations).
 * No foreign key to files: a deleted file makes the archive stale (410), not unwritable.
 */
export const archives: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('archives')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('creator_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('file_count', 'integer', (col) => col.notNull())
      .addColumn('total_bytes', 'bigint', (col) => col.notNull())
      .addColumn('archive_bytes', 'bigint', (col) => col.notNull())
      .addColumn('central_offset', 'bigint', (col) => col.notNull())
      .addColumn('central_size', 'bigint', (col) => col.notNull())
      .addColumn('etag', 'text', (col) => col.notNull())
      .addColumn('file_name', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('archives_expires_at_idx').on('archives').column('expires_at').execute();
    await db.schema
      .createTable('archive_entries')
      .addColumn('archive_id', 'text', (col) => col.notNull().references('archives.id').onDelete('cascade'))
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('file_id', 'text', (col) => col.notNull())
      .addColumn('blob_version', 'text', (col) => col.notNull())
      .addColumn('links_generation', 'integer', (col) => col.notNull())
      .addColumn('storage_key', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('size', 'bigint', (col) => col.notNull())
      .addColumn('crc32', 'bigint')
      .addColumn('has_descriptor', 'integer', (col) => col.notNull())
      .addColumn('modified_at', 'bigint', (col) => col.notNull())
      .addColumn('local_header_offset', 'bigint', (col) => col.notNull())
      .addColumn('central_offset', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('archive_entries_pk', ['archive_id', 'position'])
      .execute();
    // A Range finds its first entry by offset: an index range, whatever the archive's size.
    await db.schema
      .createIndex('archive_entries_local_idx')
      .on('archive_entries')
      .columns(['archive_id', 'local_header_offset'])
      .execute();
    await db.schema
      .createIndex('archive_entries_central_idx')
      .on('archive_entries')
      .columns(['archive_id', 'central_offset'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('archive_entries').execute();
    await db.schema.dropTable('archives').execute();
  },
};
