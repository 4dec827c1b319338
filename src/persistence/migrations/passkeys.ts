import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Passkeys (issue 41, WebAuthn).
 * - `passkeys`: one credential a user registered: its id (as the authenticator names it,
 *   base64url), public key (COSE, base64url), signature counter, and the user handle the
 *   authenticator keeps (random bytes per user, never an email). A credential id signs in one
 *   user of a project (unique). Removed with its user (kysely-user-repository.ts) or project.
 * - `passkey_challenges`: the challenges handed out, by their SHA-256: single use (taken by one
 *   DELETE … RETURNING), expiring after 5 minutes, looked up from the challenge inside the
 *   signed clientDataJSON, never from a copy in the body.
 */
export const passkeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('credential_id', 'text', (col) => col.notNull())
      .addColumn('public_key', 'text', (col) => col.notNull())
      .addColumn('counter', 'bigint', (col) => col.notNull())
      .addColumn('user_handle', 'text', (col) => col.notNull())
      // JSON array of the transports the browser reported ("internal", "hybrid", …).
      .addColumn('transports', 'text', (col) => col.notNull())
      .addColumn('device_type', 'text', (col) => col.notNull())
      .addColumn('backed_up', 'integer', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_used_at', 'bigint')
      .addUniqueConstraint('passkeys_credential_unique', ['project_id', 'credential_id'])
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').columns(['project_id', 'user_id']).execute();
    await db.schema
      .createTable('passkey_challenges')
      .addColumn('challenge_hash', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      // 'registration' | 'authentication'
      .addColumn('purpose', 'text', (col) => col.notNull())
      // Registration: the user registering; sign-in with an email: its account, if any.
      .addColumn('user_id', 'text')
      // Registration: the user handle the new credential gets.
      .addColumn('user_handle', 'text')
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('passkey_challenges_expiry')
      .on('passkey_challenges')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('passkey_challenges').execute();
    await db.schema.dropTable('passkeys').execute();
  },
};
