import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Second factors (issue 41, TOTP).
 * - `user_totp`: a user's TOTP secret, sealed with AES-256-GCM under a key kept outside the
 *   database (src/domain/mfa/secret-box.ts), the confirmed one and a pending one beside it
 *   (an enrolment replaces the factor only once its first code is confirmed), and the last
 *   time step accepted: a code is good once (RFC 6238 §5.2).
 * - `recovery_codes`: SHA-256 of each code (80 random bits); a spent one keeps its row, used.
 * - `mfa_tokens`: the half-finished sign-ins (`mfa`) and the enrolment tokens (`enrolment`), by
 *   the SHA-256 of the token; short-lived, with the wrong codes counted.
 */
export const mfa: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_totp')
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('secret', 'text')
      .addColumn('pending_secret', 'text')
      .addColumn('confirmed_at', 'bigint')
      .addColumn('last_step', 'bigint')
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('user_totp_pk', ['project_id', 'user_id'])
      .execute();
    await db.schema
      .createTable('recovery_codes')
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('code_hash', 'text', (col) => col.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('recovery_codes_pk', ['project_id', 'user_id', 'code_hash'])
      .execute();
    await db.schema
      .createTable('mfa_tokens')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('purpose', 'text', (col) => col.notNull())
      // How the user began to sign in (password, magic link, OAuth), as JSON: the session says so.
      .addColumn('sign_in', 'text', (col) => col.notNull())
      .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('mfa_tokens_user')
      .on('mfa_tokens')
      .columns(['project_id', 'user_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mfa_tokens').execute();
    await db.schema.dropTable('recovery_codes').execute();
    await db.schema.dropTable('user_totp').execute();
  },
};
