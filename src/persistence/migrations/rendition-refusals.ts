import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Renders refused for good (issue 35; domain/renditions/rendition-repository.ts): one row per
 * file and source version that cannot be rendered within the limits (IMAGE_TOO_LARGE, decided
 * from its header), so that every later request is answered from the row, never by reading the
 * source again; `limits` says under which limits it was decided (changed limits decide again).
 * The rows go with their file (cascade); a new version has none.
 */
export const renditionRefusals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rendition_refusals')
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('source_version', 'text', (col) => col.notNull())
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('limits', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('rendition_refusals_pk', ['file_id', 'source_version'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rendition_refusals').execute();
  },
};
