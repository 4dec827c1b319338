import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Image renditions (issue 21; domain/renditions/). `renditions` names the rendered bytes of one
 * (file, source version, canonical spec): the rows go with their file (cascade), and the blob
 * collector removes bytes no row names. The image columns of `files` hold what a verified image
 * tells (meta.width, meta.height, meta.placeholder); `image_summary_due` marks the verified
 * images still to be summarized, found by a partial index so the queue costs nothing at rest.
 */
export const renditions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('renditions')
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('source_version', 'text', (col) => col.notNull())
      .addColumn('spec', 'text', (col) => col.notNull())
      .addColumn('blob_key', 'text', (col) => col.notNull())
      .addColumn('blob_version', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint', (col) => col.notNull())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('etag', 'text', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('renditions_pk', ['file_id', 'source_version', 'spec'])
      .execute();
    await db.schema.createIndex('renditions_blob_idx').on('renditions').column('blob_key').execute();
    await db.schema.alterTable('files').addColumn('image_width', 'integer').execute();
    await db.schema.alterTable('files').addColumn('image_height', 'integer').execute();
    await db.schema.alterTable('files').addColumn('image_placeholder', 'text').execute();
    await db.schema
      .alterTable('files')
      .addColumn('image_summary_due', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('files_image_summary_due_idx')
      .on('files')
      .column('id')
      .where(sql.ref('image_summary_due'), '=', 1)
      .execute();
    // Images verified before this migration are summarized too, a batch at a time, by serve.
    await db
      .updateTable('files' as never)
      .set({ image_summary_due: 1 } as never)
      .where(sql.ref('verified'), '=', 1)
      .where(sql.ref('content_type'), 'like', 'image/%')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_image_summary_due_idx').execute();
    for (const column of ['image_summary_due', 'image_placeholder', 'image_height', 'image_width'])
      await db.schema.alterTable('files').dropColumn(column).execute();
    await db.schema.dropTable('renditions').execute();
  },
};
