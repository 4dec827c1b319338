import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Upload contracts (issue 10, item 6): what the upload request declared (length, type,
 * SHA-256), which the gateway holds every PUT to, and the SHA-256 of the bytes themselves:
 * the pending upload's beside it, and the verified content's once verify pins it.
 */
const columns = [
  ['expected_size_bytes', 'bigint'],
  ['expected_content_type', 'text'],
  ['expected_sha256', 'text'],
  ['upload_sha256', 'text'],
  ['content_sha256', 'text'],
] as const;

export const uploadContracts: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    for (const [name, type] of columns) await db.schema.alterTable('files').addColumn(name, type).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const [name] of columns) await db.schema.alterTable('files').dropColumn(name).execute();
  },
};
