import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { uploadAdmissionColumns } from './trash-mirror-columns.ts';

/**
 * Issue 42, item 3: the admission hook's outcome on a pending upload, as JSON text
 * (domain/admission/admission-record.ts): `files.upload_admission` a new file's,
 * `version_uploads.upload_admission` a new version's; `trashed_files` mirrors it. Null: not
 * asked yet (or the project has no hook). Expand: older nodes never read or write it.
 */
export const uploadAdmissions: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['files', 'trashed_files'])
      for (const column of uploadAdmissionColumns)
        await db.schema.alterTable(table).addColumn(column, 'text').execute();
    await db.schema.alterTable('version_uploads').addColumn('upload_admission', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('version_uploads').dropColumn('upload_admission').execute();
    for (const table of ['trashed_files', 'files'])
      for (const column of uploadAdmissionColumns)
        await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
