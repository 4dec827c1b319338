import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { SignInMethod } from '../../../domain/identity/session-types.ts';
import type { MfaRepository, MfaToken, TotpFactor } from '../../../domain/mfa/mfa-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';

type UserKey = { projectId: string; userId: string };

/** MfaRepository over Kysely (SQLite or PostgreSQL alike; migrations/mfa.ts). */
export class KyselyMfaRepository implements MfaRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async findTotp(user: UserKey): Promise<TotpFactor | undefined> {
    const row = await this.#db
      .selectFrom('user_totp')
      .select(['secret', 'pending_secret', 'last_step'])
      .where('project_id', '=', user.projectId)
      .where('user_id', '=', user.userId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      ...(row.secret !== null && { secret: row.secret }),
      ...(row.pending_secret !== null && { pendingSecret: row.pending_secret }),
      ...(row.last_step !== null && { lastStep: Number(row.last_step) }),
    };
  }

  async savePendingTotp(user: UserKey, sealed: string, at: Date): Promise<void> {
    const row = {
      project_id: user.projectId,
      user_id: user.userId,
      pending_secret: sealed,
      updated_at: at.getTime(),
    };
    await this.#db
      .insertInto('user_totp')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'user_id'])
          .doUpdateSet({ pending_secret: sealed, updated_at: at.getTime() }),
      )
      .execute();
  }

  async confirmTotp(
    user: UserKey,
    change: { sealed: string; step: number; codeHashes: string[] },
    event: NewEvent,
  ): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const at = event.occurredAt.getTime();
      const result = await trx
        .updateTable('user_totp')
        .set({
          secret: change.sealed,
          pending_secret: null,
          confirmed_at: at,
          last_step: change.step,
          updated_at: at,
        })
        .where('project_id', '=', user.projectId)
        .where('user_id', '=', user.userId)
        .where('pending_secret', '=', change.sealed)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await deleteWhereUser(trx, 'recovery_codes', user);
      await trx
        .insertInto('recovery_codes')
        .values(
          change.codeHashes.map((code_hash) => ({
            project_id: user.projectId,
            user_id: user.userId,
            code_hash,
          })),
        )
        .execute();
      await deleteWhereUser(trx, 'mfa_tokens', user);
      await insertEvents(trx, [event]);
      return true;
    });
  }

  async acceptStep(user: UserKey, step: number, resealed?: string): Promise<boolean> {
    // One statement: two requests with the same code cannot both move the step (a replay).
    const result = await this.#db
      .updateTable('user_totp')
      .set({ last_step: step, ...(resealed !== undefined && { secret: resealed }) })
      .where('project_id', '=', user.projectId)
      .where('user_id', '=', user.userId)
      .where('secret', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async listRecoveryCodeHashes(user: UserKey): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('project_id', '=', user.projectId)
      .where('user_id', '=', user.userId)
      .where('used_at', 'is', null)
      .execute();
    return rows.map((row) => row.code_hash);
  }

  async spendRecoveryCode(user: UserKey, codeHash: string, at: Date): Promise<boolean> {
    const result = await this.#db
      .updateTable('recovery_codes')
      .set({ used_at: at.getTime() })
      .where('project_id', '=', user.projectId)
      .where('user_id', '=', user.userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async removeFactors(user: UserKey, event: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const removed = await trx
        .deleteFrom('user_totp')
        .where('project_id', '=', user.projectId)
        .where('user_id', '=', user.userId)
        .where('secret', 'is not', null)
        .executeTakeFirst();
      // A pending enrolment goes too, with the codes and the sign-ins waiting for a code.
      await deleteWhereUser(trx, 'user_totp', user);
      await deleteWhereUser(trx, 'recovery_codes', user);
      await deleteWhereUser(trx, 'mfa_tokens', user);
      if (removed.numDeletedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }

  async createToken(tokenHash: string, token: MfaToken): Promise<void> {
    // The user's expired tokens go as a new one comes: the table holds only live ones, roughly.
    await this.#db
      .deleteFrom('mfa_tokens')
      .where('project_id', '=', token.projectId)
      .where('user_id', '=', token.userId)
      .where('expires_at', '<=', token.createdAt)
      .execute();
    await this.#db
      .insertInto('mfa_tokens')
      .values({
        token_hash: tokenHash,
        project_id: token.projectId,
        user_id: token.userId,
        purpose: token.purpose,
        sign_in: JSON.stringify(token.signIn),
        failures: 0,
        created_at: token.createdAt,
        expires_at: token.expiresAt,
      })
      .execute();
  }

  async findToken(tokenHash: string): Promise<MfaToken | undefined> {
    const row = await this.#db
      .selectFrom('mfa_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      projectId: row.project_id,
      userId: row.user_id,
      purpose: row.purpose === 'enrolment' ? 'enrolment' : 'mfa',
      signIn: JSON.parse(row.sign_in) as SignInMethod,
      failures: Number(row.failures),
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
    };
  }

  async countFailure(tokenHash: string): Promise<number> {
    const row = await this.#db
      .updateTable('mfa_tokens')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('token_hash', '=', tokenHash)
      .returning('failures')
      .executeTakeFirst();
    return row ? Number(row.failures) : Number.POSITIVE_INFINITY;
  }

  async deleteToken(tokenHash: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('mfa_tokens')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

/** Deletes the user's rows of a table keyed by (project_id, user_id). */
async function deleteWhereUser(
  trx: Kysely<DatabaseSchema>,
  table: 'user_totp' | 'recovery_codes' | 'mfa_tokens',
  user: UserKey,
): Promise<void> {
  await trx
    .deleteFrom(table)
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .execute();
}
