import type { Kysely } from 'kysely';
import type {
  AccountTokenEffect,
  AccountTokenPurpose,
  AccountTokenRepository,
  NewAccountToken,
} from '../../../domain/accounts/account-token.ts';
import type { User } from '../../../domain/identity/user-repository.ts';
import type { NewMail } from '../../../domain/mail/mail.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { normalizeEmail, toUser } from '../kysely-user-repository.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { writeTransaction } from '../write-transaction.ts';

export class KyselyAccountTokenRepository implements AccountTokenRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async issue(token: NewAccountToken, mail: NewMail): Promise<void> {
    await writeTransaction(this.#db, async (trx) => {
      // Tokens nobody spent go as new ones are made: a few rows each time, no timer.
      const expired = trx
        .selectFrom('account_tokens')
        .select('token_hash')
        .where('expires_at', '<=', token.createdAt.getTime())
        .limit(2);
      await trx.deleteFrom('account_tokens').where('token_hash', 'in', expired).execute();
      // One live token per user and purpose: the new one replaces the old, in one statement, so
      // two requests at once (PostgreSQL runs them side by side) cannot both insert.
      const row = toAccountTokenRow(token);
      await trx
        .insertInto('account_tokens')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['project_id', 'user_id', 'purpose']).doUpdateSet({
            token_hash: row.token_hash,
            email: row.email,
            from_email: row.from_email,
            created_at: row.created_at,
            expires_at: row.expires_at,
          }),
        )
        .execute();
      await enqueueMail(trx, mail);
    });
  }

  async redeem(
    token: { tokenHash: string; projectId: string | undefined; purpose: AccountTokenPurpose },
    now: Date,
    effect: (user: User) => AccountTokenEffect,
  ): Promise<User | undefined> {
    return writeTransaction(this.#db, async (trx) => {
      // One statement takes the row: of two requests with the same token, one gets it. A token
      // of another purpose is left alone (a reset token sent to verify-email stays usable).
      let spend = trx
        .deleteFrom('account_tokens')
        .where('token_hash', '=', token.tokenHash)
        .where('purpose', '=', token.purpose);
      if (token.projectId !== undefined) spend = spend.where('project_id', '=', token.projectId);
      const taken = await spend
        .returning(['project_id', 'user_id', 'email', 'expires_at'])
        .executeTakeFirst();
      if (!taken || Number(taken.expires_at) <= now.getTime()) return undefined;
      const user = await trx
        .selectFrom('users')
        .selectAll()
        .where('project_id', '=', taken.project_id)
        .where('id', '=', taken.user_id)
        .executeTakeFirst();
      if (!user || user.email_normalized !== normalizeEmail(taken.email)) return undefined;
      const change = effect(toUser(user));
      const updated = await trx
        .updateTable('users')
        .set((eb) => ({
          email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now.getTime())),
          ...(change.passwordHash !== undefined && { password_hash: change.passwordHash }),
          updated_at: now.getTime(),
          version: eb('version', '+', 1),
        }))
        .where('project_id', '=', taken.project_id)
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (change.endSessions)
        await trx
          .deleteFrom('refresh_token_families')
          .where('project_id', '=', taken.project_id)
          .where('user_id', '=', user.id)
          .execute();
      await insertEvents(trx, [change.event]);
      return toUser(updated);
    });
  }
}

/** An account token as its `account_tokens` row holds it (the hash, never the token). */
export function toAccountTokenRow(token: NewAccountToken) {
  return {
    token_hash: token.tokenHash,
    project_id: token.projectId,
    user_id: token.userId,
    purpose: token.purpose,
    email: token.email,
    from_email: token.fromEmail ?? null,
    created_at: token.createdAt.getTime(),
    expires_at: token.expiresAt.getTime(),
  };
}
