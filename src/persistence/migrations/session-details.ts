import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What a session shows its user (issue 41, item 4: GET /api/v1/user/sessions): the address and
 * user agent it began from (the agent bounded to 256 characters, as events keep it), how it
 * began (`password`, `magic-link`, `oauth:<provider>`, `anonymous`, `passkey`…) and when it was
 * last used. `last_used_at` is written at the sign-in and at each refresh, never per request
 * (docs/decisions.md, "A session's last use is its last refresh"). Families from before this
 * migration show nulls, and their creation time as their last use.
 */
export const sessionDetails: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('refresh_token_families').addColumn('ip', 'text').execute();
    await db.schema.alterTable('refresh_token_families').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('refresh_token_families').addColumn('method', 'text').execute();
    await db.schema.alterTable('refresh_token_families').addColumn('last_used_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['last_used_at', 'method', 'user_agent', 'ip'])
      await db.schema.alterTable('refresh_token_families').dropColumn(column).execute();
  },
};
