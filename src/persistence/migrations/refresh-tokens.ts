import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Refresh tokens (docs/security.md, "Sessions"). A family is one login; each rotation adds a
 * token to it. Tokens are kept only as SHA-256 hashes. Deleting a family row revokes it: its
 * tokens go with it (ON DELETE CASCADE), and a rotation racing the delete either finds the
 * family gone or is committed before the cascade runs, which then removes its new token too.
 */
export const refreshTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('refresh_token_families')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      // The expiry of its newest token: past it, the whole family is dead and may be swept.
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('refresh_token_families_user_idx')
      .on('refresh_token_families')
      .columns(['project_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('refresh_token_families_expires_at_idx')
      .on('refresh_token_families')
      .column('expires_at')
      .execute();
    await db.schema
      .createTable('refresh_tokens')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('family_id', 'text', (col) =>
        col.notNull().references('refresh_token_families.id').onDelete('cascade'),
      )
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      // Set when the token was rotated: a later use is a reuse (after the grace, a theft).
      .addColumn('retired_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('refresh_tokens_family_idx')
      .on('refresh_tokens')
      .column('family_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('refresh_tokens').execute();
    await db.schema.dropTable('refresh_token_families').execute();
  },
};
