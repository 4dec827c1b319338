import type { Kysely, Selectable } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type {
  Passkey,
  PasskeyChallenge,
  PasskeyChallengePurpose,
  PasskeyRepository,
} from '../../../domain/passkeys/passkey-repository.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import type { PasskeysTable } from '../../passkey-schema.ts';
import { deleteExpiredRows } from '../delete-expired-rows.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';

/** PasskeyRepository over Kysely: a credential id is unique per project; a challenge is taken once. */
export class KyselyPasskeyRepository implements PasskeyRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async listByUser(projectId: string, userId: string): Promise<Passkey[]> {
    const rows = await this.#db
      .selectFrom('passkeys')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toPasskey);
  }

  async findByCredentialId(projectId: string, credentialId: string): Promise<Passkey | undefined> {
    const row = await this.#db
      .selectFrom('passkeys')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
    return row && toPasskey(row);
  }

  async create(passkey: Passkey, event: NewEvent): Promise<boolean> {
    try {
      await writeTransaction(this.#db, async (trx) => {
        await trx.insertInto('passkeys').values(toRow(passkey)).execute();
        await insertEvents(trx, [event]);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async recordUse(id: string, counter: number, at: Date): Promise<void> {
    await this.#db
      .updateTable('passkeys')
      .set({ counter, last_used_at: at.getTime() })
      .where('id', '=', id)
      .execute();
  }

  async delete(projectId: string, userId: string, id: string, event: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const result = await trx
        .deleteFrom('passkeys')
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }

  async saveChallenge(challenge: PasskeyChallenge): Promise<void> {
    await this.#db
      .insertInto('passkey_challenges')
      .values({
        challenge_hash: challenge.challengeHash,
        project_id: challenge.projectId,
        purpose: challenge.purpose,
        user_id: challenge.userId,
        user_handle: challenge.userHandle,
        expires_at: challenge.expiresAt.getTime(),
      })
      .execute();
  }

  async takeChallenge(
    key: { projectId: string; purpose: PasskeyChallengePurpose; challengeHash: string },
    now: Date,
  ): Promise<PasskeyChallenge | undefined> {
    // One DELETE … RETURNING: of two racing uses of one challenge, one takes it, the other finds none.
    const row = await this.#db
      .deleteFrom('passkey_challenges')
      .where('challenge_hash', '=', key.challengeHash)
      .where('project_id', '=', key.projectId)
      .where('purpose', '=', key.purpose)
      .where('expires_at', '>', now.getTime())
      .returningAll()
      .executeTakeFirst();
    return (
      row && {
        challengeHash: row.challenge_hash,
        projectId: row.project_id,
        purpose: row.purpose as PasskeyChallengePurpose,
        userId: row.user_id,
        userHandle: row.user_handle,
        expiresAt: new Date(Number(row.expires_at)),
      }
    );
  }

  deleteExpiredChallenges(now: Date): Promise<number> {
    const table = { table: 'passkey_challenges', key: 'challenge_hash', deadline: 'expires_at' } as const;
    return deleteExpiredRows(this.#db, table, now, 20);
  }
}

function toRow(passkey: Passkey) {
  return {
    id: passkey.id,
    project_id: passkey.projectId,
    user_id: passkey.userId,
    credential_id: passkey.credentialId,
    public_key: Buffer.from(passkey.publicKey).toString('base64url'),
    counter: passkey.counter,
    user_handle: passkey.userHandle,
    transports: JSON.stringify(passkey.transports),
    device_type: passkey.deviceType,
    backed_up: passkey.backedUp ? 1 : 0,
    name: passkey.name,
    created_at: passkey.createdAt.getTime(),
    last_used_at: passkey.lastUsedAt?.getTime() ?? null,
  };
}

function toPasskey(row: Selectable<PasskeysTable>): Passkey {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
    counter: Number(row.counter),
    userHandle: row.user_handle,
    transports: JSON.parse(row.transports) as string[],
    deviceType: row.device_type,
    backedUp: row.backed_up === 1,
    name: row.name,
    createdAt: new Date(Number(row.created_at)),
    lastUsedAt: row.last_used_at === null ? null : new Date(Number(row.last_used_at)),
  };
}
