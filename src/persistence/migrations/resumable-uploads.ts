import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Resumable uploads in progress (issue 20; domain/resumable/resumable-upload.ts). The lease
 * columns let one writer at a time stream into an upload, on any node, without holding a
 * transaction open while the bytes arrive; `expires_at` slides with each accepted chunk, and
 * the sweeper finds expired uploads by its index.
 */
export const resumableUploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('resumable_uploads')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('file_id', 'text', (col) => col.notNull())
      .addColumn('creator_id', 'text', (col) => col.notNull())
      .addColumn('blob_version', 'text', (col) => col.notNull())
      .addColumn('length', 'bigint', (col) => col.notNull())
      .addColumn('upload_offset', 'bigint', (col) => col.notNull())
      .addColumn('store_state', 'text')
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('etag', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('resumable_uploads_expires_at_idx')
      .on('resumable_uploads')
      .column('expires_at')
      .execute();
    await db.schema
      .createIndex('resumable_uploads_file_idx')
      .on('resumable_uploads')
      .columns(['file_id', 'blob_version'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('resumable_uploads').execute();
  },
};
