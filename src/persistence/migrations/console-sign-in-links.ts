import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The console's one-time sign-in links (`coffer console`): kept as SHA-256 hashes of their
 * tokens like sessions, each good once and for minutes. And an index that lets the console's
 * usage page read a project's heaviest users a page at a time, without reading them all.
 */
export const consoleSignInLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_sign_in_links')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('operator_id', 'text', (col) => col.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('operator_sign_in_links_operator_idx')
      .on('operator_sign_in_links')
      .column('operator_id')
      .execute();
    await db.schema
      .createIndex('storage_usage_bytes_idx')
      .on('storage_usage')
      .columns(['project_id', 'bytes'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('storage_usage_bytes_idx').execute();
    await db.schema.dropTable('operator_sign_in_links').execute();
  },
};
