import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Sign-in with identity providers (issue 37).
 * - `user_identities`: who a provider says a user is (provider name, its `sub`), unique per
 *   project, so one identity signs in one user; listed per user for the profile's `providers`.
 * - `oauth_flows`: one sign-in between its start and the app fetching its token: the PKCE
 *   verifier and nonce (the callback needs them), the client's state (the token fetch names it),
 *   then the identity the callback established. Short-lived: taken once, swept after expiry.
 */
export const userIdentities: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_identities')
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('display_name', 'text', (col) => col.notNull())
      .addColumn('email', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('user_identities_pk', ['project_id', 'provider', 'subject'])
      .execute();
    await db.schema
      .createIndex('user_identities_user')
      .on('user_identities')
      .columns(['project_id', 'user_id', 'provider'])
      .execute();
    await db.schema
      .createTable('oauth_flows')
      // Coffer's own state, sent to the provider: a random 32-byte value.
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('client_state', 'text', (col) => col.notNull())
      .addColumn('code_verifier', 'text', (col) => col.notNull())
      .addColumn('nonce', 'text', (col) => col.notNull())
      .addColumn('redirect_to', 'text')
      // The address that started the flow: only it may fetch the token (issue 37, docs/security.md).
      .addColumn('client_address', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      // Set by the callback: the identity, as JSON ({subject, email, emailVerified, displayName}).
      .addColumn('identity', 'text')
      .execute();
    await db.schema
      .createIndex('oauth_flows_client_state')
      .on('oauth_flows')
      .columns(['project_id', 'provider', 'client_state'])
      .unique()
      .execute();
    await db.schema.createIndex('oauth_flows_expiry').on('oauth_flows').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oauth_flows').execute();
    await db.schema.dropTable('user_identities').execute();
  },
};
