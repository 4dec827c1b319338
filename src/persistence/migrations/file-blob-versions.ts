import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Blob versions (issue: a late PUT racing verify changed a verified file's bytes under its
 * record). Every PUT now stores a new immutable blob version and commits it to the record
 * as its pending upload, only while the record is unverified; verify pins that version in
 * blob_version, and downloads serve exactly it. The pending upload's facts live beside it,
 * so verify compares the etag without asking the store.
 * Files verified before this migration have no pinned version: see docs/decisions.md
 * (move such data with export and import).
 */
const columns = [
  ['blob_version', 'text'],
  ['upload_blob_version', 'text'],
  ['upload_etag', 'text'],
  ['upload_size_bytes', 'bigint'],
  ['upload_content_type', 'text'],
  ['upload_last_modified', 'bigint'],
] as const;

export const fileBlobVersions: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    for (const [name, type] of columns) await db.schema.alterTable('files').addColumn(name, type).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const [name] of columns) await db.schema.alterTable('files').dropColumn(name).execute();
  },
};
