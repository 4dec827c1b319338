import type { Kysely } from 'kysely';
import type { NewAccountToken } from '../../../domain/accounts/account-token.ts';
import type {
  EmailChangeRepository,
  EmailSwitch,
  EmailSwitchEffect,
  EmailSwitchResult,
} from '../../../domain/accounts/email-change-repository.ts';
import type { User } from '../../../domain/identity/user-repository.ts';
import { emailTaken } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { normalizeEmail, toUser } from '../kysely-user-repository.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { writeTransaction } from '../write-transaction.ts';
import { toAccountTokenRow } from './kysely-account-token-repository.ts';

type Trx = Kysely<DatabaseSchema>;

/** Email change and its revert (issue 41, item 3) on the account tokens' table (migration 0041). */
export class KyselyEmailChangeRepository implements EmailChangeRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async findTokenProjectId(tokenHash: string, purpose: EmailSwitch['purpose']): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('account_tokens')
      .select('project_id')
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return row?.project_id;
  }

  async switchEmail(
    input: EmailSwitch,
    effect: (user: User, newEmail: string) => EmailSwitchEffect,
  ): Promise<EmailSwitchResult | undefined> {
    try {
      return await writeTransaction(this.#db, (trx) => this.#switch(trx, input, effect));
    } catch (error) {
      // Another account took the address between our check and the update.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async #switch(
    trx: Trx,
    input: EmailSwitch,
    effect: (user: User, newEmail: string) => EmailSwitchEffect,
  ): Promise<EmailSwitchResult | undefined> {
    const now = input.now.getTime();
    let spend = trx
      .deleteFrom('account_tokens')
      .where('token_hash', '=', input.tokenHash)
      .where('purpose', '=', input.purpose);
    if (input.projectId !== undefined) spend = spend.where('project_id', '=', input.projectId);
    const taken = await spend
      .returning(['project_id', 'user_id', 'email', 'from_email', 'expires_at'])
      .executeTakeFirst();
    if (!taken || Number(taken.expires_at) <= now) return undefined;
    const row = await trx
      .selectFrom('users')
      .selectAll()
      .where('project_id', '=', taken.project_id)
      .where('id', '=', taken.user_id)
      .executeTakeFirst();
    if (!row) return undefined;
    // A disabled account is its operator's to change; its owner's way back (a revert) still works.
    if (input.purpose === 'email-change' && row.enabled !== 1) return undefined;
    // A change applies only to the address it was asked for (a revert since then made it stale).
    if (input.purpose === 'email-change' && row.email_normalized !== normalizeEmail(taken.from_email ?? ''))
      return undefined;
    const newEmail = taken.email.trim();
    const holder = await trx
      .selectFrom('users')
      .select('id')
      .where('project_id', '=', taken.project_id)
      .where('email_normalized', '=', normalizeEmail(newEmail))
      .where('id', '!=', row.id)
      .executeTakeFirst();
    if (holder) throw emailTaken();
    const change = effect(toUser(row), newEmail);
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({
        email: newEmail,
        email_normalized: normalizeEmail(newEmail),
        // Its holder just opened a link mailed to it.
        email_verified_at: now,
        updated_at: now,
        version: eb('version', '+', 1),
      }))
      .where('project_id', '=', taken.project_id)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    let sessions = trx
      .deleteFrom('refresh_token_families')
      .where('project_id', '=', taken.project_id)
      .where('user_id', '=', row.id);
    if (input.keepSessionId !== undefined) sessions = sessions.where('id', '!=', input.keepSessionId);
    await sessions.execute();
    if (input.purpose === 'email-revert')
      await trx
        .deleteFrom('account_tokens')
        .where('project_id', '=', taken.project_id)
        .where('user_id', '=', row.id)
        .where('purpose', '=', 'email-change')
        .execute();
    const revertIssued = change.revert !== undefined && (await storeRevert(trx, change.revert, now));
    await insertEvents(trx, [change.event]);
    return { user: toUser(updated), previousEmail: row.email, revertIssued };
  }
}

/** Stores a revert and queues its mail unless a live one (of an earlier change) is there: that one stays. */
async function storeRevert(
  trx: Trx,
  revert: { token: NewAccountToken; mail: Parameters<typeof enqueueMail>[1] },
  now: number,
): Promise<boolean> {
  const { token } = revert;
  const row = toAccountTokenRow(token);
  const stored = await trx
    .insertInto('account_tokens')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['project_id', 'user_id', 'purpose'])
        .doUpdateSet({
          token_hash: row.token_hash,
          email: row.email,
          from_email: row.from_email,
          created_at: row.created_at,
          expires_at: row.expires_at,
        })
        .where('account_tokens.expires_at', '<=', now),
    )
    .returning('token_hash')
    .executeTakeFirst();
  if (!stored) return false;
  await enqueueMail(trx, revert.mail);
  return true;
}
