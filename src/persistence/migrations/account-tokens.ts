import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Accounts by email (issue 23): whether and when a user's address was verified, and the
 * single-use tokens that mails carry (password reset, email verification, magic link), stored
 * as SHA-256 hashes only. One live token per user and purpose: the unique key makes a new one
 * replace the old in the same transaction.
 */
export const accountTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('email_verified_at', 'bigint').execute();
    await db.schema
      .createTable('account_tokens')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (col) => col.notNull())
      // The address the mail went to: the token works only while the account still has it.
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('account_tokens_user_purpose_idx')
      .unique()
      .on('account_tokens')
      .columns(['project_id', 'user_id', 'purpose'])
      .execute();
    await db.schema
      .createIndex('account_tokens_expires_at_idx')
      .on('account_tokens')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('account_tokens').execute();
    await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  },
};
