import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Changing an account's address (issue 41, item 3) with the account tokens' table: a change's
 * token is mailed to the new address (its `email`) and applies only while the account still has
 * the address it had when the change was asked (`from_email`); a revert's token is mailed to the
 * old address and names the new one it undoes. Null for every other purpose.
 */
export const emailChangeTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('account_tokens').addColumn('from_email', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('account_tokens').dropColumn('from_email').execute();
  },
};
