import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { uploadScanColumns } from './trash-mirror-columns.ts';

/**
 * Issue 42: the malware scanner's verdict on every version's bytes, as JSON text
 * (`{result, engine, signatures, scannedAt[, signature | reason]}`, domain/admission/scan-gate.ts).
 * - `files.content_scan` the current version's (`meta.scan`), `files.upload_scan` a pending
 *   upload's, reached while its PUT streamed or at verify; `trashed_files` mirrors both;
 * - `file_versions.content_scan` an earlier version's (a restore keeps it),
 *   `version_uploads.upload_scan` a new version's on its way.
 * Null: not scanned (no scanner, a project's `scan=off`, or written before).
 */
export const uploadScans: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['files', 'trashed_files'])
      for (const column of uploadScanColumns)
        await db.schema.alterTable(table).addColumn(column, 'text').execute();
    await db.schema.alterTable('file_versions').addColumn('content_scan', 'text').execute();
    await db.schema.alterTable('version_uploads').addColumn('upload_scan', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('version_uploads').dropColumn('upload_scan').execute();
    await db.schema.alterTable('file_versions').dropColumn('content_scan').execute();
    for (const table of ['trashed_files', 'files'])
      for (const column of [...uploadScanColumns].reverse())
        await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
