import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { quarantineColumns } from './trash-mirror-columns.ts';

/**
 * Issue 42, item 2: a file a re-scan (`coffer scan`) found infected is quarantined: its bytes
 * are served to no one until a project admin releases or deletes it. One state per file, set
 * when any of its stored versions is hit (a version cannot be quarantined alone: the record,
 * its links and its earlier versions are one thing to a reader).
 * - `quarantined_at` (ms) while quarantined, else null; `quarantine_signature` what the
 *   scanner named; `quarantine_version_id` the version it was found in (the file's id for its
 *   first version);
 * - `trashed_files` mirrors the three (trash-mirror-columns.ts): a trashed file stays quarantined;
 * - a partial index on (project_id, quarantined_at) lists a project's quarantined files
 *   (the console) without reading the others.
 */
export const fileQuarantine: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['files', 'trashed_files']) {
      await db.schema.alterTable(table).addColumn('quarantined_at', 'bigint').execute();
      await db.schema.alterTable(table).addColumn('quarantine_signature', 'text').execute();
      await db.schema.alterTable(table).addColumn('quarantine_version_id', 'text').execute();
    }
    await db.schema
      .createIndex('files_quarantined')
      .on('files')
      .columns(['project_id', 'quarantined_at'])
      .where('quarantined_at', 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_quarantined').execute();
    for (const table of ['trashed_files', 'files'])
      for (const column of [...quarantineColumns].reverse())
        await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
