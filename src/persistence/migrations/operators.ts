import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The console's operators (docs/security.md, "The console"): people who administer the whole
 * service, apart from any project's users. Passwords are argon2id PHC strings like users';
 * sessions are kept only as SHA-256 hashes of their cookie tokens.
 */
export const operators: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operators')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // Lower-cased on the way in: one operator per address, whatever its case.
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('password_hash', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('operator_sessions')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('operator_id', 'text', (col) => col.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('operator_sessions_operator_idx')
      .on('operator_sessions')
      .column('operator_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('operator_sessions').execute();
    await db.schema.dropTable('operators').execute();
  },
};
