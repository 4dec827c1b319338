import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { contentCrc32Columns } from './trash-mirror-columns.ts';

/**
 * Issue 40: the CRC-32 of every version's bytes, computed as they stream through Coffer (a
 * ZIP entry needs it before its bytes). BIGINT: a uint32 passes PostgreSQL's `integer`.
 * - `files.content_crc32` the current version's, `files.upload_crc32` a pending upload's;
 *   `trashed_files` mirrors both (trash-mirror-columns.ts);
 * - `file_versions.content_crc32` an earlier version's, `version_uploads.upload_crc32` a new
 *   version's on its way;
 * - `resumable_uploads.crc32_state` the running CRC at `upload_offset`, saved in the same
 *   update as the offset and the SHA-256's state, so a resume goes on from it.
 * Null where the bytes never passed through Coffer (direct and multipart S3 uploads) and for
 * everything written before: computed once, on first use (domain/files/content-crc.ts).
 */
export const contentCrc32: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['files', 'trashed_files'])
      for (const column of contentCrc32Columns)
        await db.schema.alterTable(table).addColumn(column, 'bigint').execute();
    await db.schema.alterTable('file_versions').addColumn('content_crc32', 'bigint').execute();
    await db.schema.alterTable('version_uploads').addColumn('upload_crc32', 'bigint').execute();
    await db.schema.alterTable('resumable_uploads').addColumn('crc32_state', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('resumable_uploads').dropColumn('crc32_state').execute();
    await db.schema.alterTable('version_uploads').dropColumn('upload_crc32').execute();
    await db.schema.alterTable('file_versions').dropColumn('content_crc32').execute();
    for (const table of ['trashed_files', 'files'])
      for (const column of [...contentCrc32Columns].reverse())
        await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
