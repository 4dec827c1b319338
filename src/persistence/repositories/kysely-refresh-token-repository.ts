import type { Kysely, Selectable } from 'kysely';
import type { NewEvent } from '../../domain/events/event.ts';
import type {
  FamilySummary,
  NewRefreshToken,
  NextRefreshToken,
  RefreshToken,
  RefreshTokenRepository,
  RotationOutcome,
  SessionDetails,
} from '../../domain/identity/refresh-token-repository.ts';
import type { DatabaseSchema, RefreshTokenFamiliesTable, RefreshTokensTable } from '../database-schema.ts';
import { sessionEpochId } from '../migrations/session-revocation.ts';
import { deleteExpiredRows } from './delete-expired-rows.ts';
import { insertEvents } from './events/insert-events.ts';
import { prepareQuery } from './prepared-query.ts';
import { deleteUserFamiliesNoting, deleteUserFamily, listUserFamilies } from './user-family-rows.ts';
import { writeTransaction } from './write-transaction.ts';

type TokenRow = Selectable<RefreshTokensTable> &
  Pick<Selectable<RefreshTokenFamiliesTable>, 'project_id' | 'user_id' | 'secret'>;

/** Refresh-token families and their tokens (migrations/refresh-tokens.ts). */
export class KyselyRefreshTokenRepository implements RefreshTokenRepository {
  readonly #db: Kysely<DatabaseSchema>;
  /** Read a few times a second by every busy process, and on each new session it sees: compiled once. */
  readonly #selectEpoch: (id: number) => Promise<{ value: number }[]>;
  readonly #selectFamilyExpiry: (id: string) => Promise<{ expires_at: number }[]>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#selectEpoch = prepareQuery(
      db,
      (id: number) => db.selectFrom('access_epoch').select('value').where('id', '=', id),
      [0],
    );
    this.#selectFamilyExpiry = prepareQuery(
      db,
      (id: string) => db.selectFrom('refresh_token_families').select('expires_at').where('id', '=', id),
      [''],
    );
  }

  async createFamily(
    family: { id: string; projectId: string; userId: string; secret?: string; details?: SessionDetails },
    token: NewRefreshToken,
    now: Date,
    event?: NewEvent,
  ): Promise<void> {
    await writeTransaction(this.#db, async (trx) => {
      await trx
        .insertInto('refresh_token_families')
        .values({
          id: family.id,
          project_id: family.projectId,
          user_id: family.userId,
          created_at: now.getTime(),
          expires_at: token.expiresAt.getTime(),
          secret: family.secret ?? null,
          ip: family.details?.ip ?? null,
          user_agent: family.details?.userAgent ?? null,
          method: family.details?.method ?? null,
          last_used_at: now.getTime(),
        })
        .execute();
      await trx
        .insertInto('refresh_tokens')
        .values({ token_hash: token.tokenHash, family_id: family.id, expires_at: token.expiresAt.getTime() })
        .execute();
      await insertEvents(trx, [event]);
    });
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | undefined> {
    const row = await selectToken(this.#db, tokenHash);
    return row && toRefreshToken(row);
  }

  async rotate(
    tokenHash: string,
    nextOrDerive: NextRefreshToken,
    now: Date,
    graceMs: number,
  ): Promise<RotationOutcome> {
    const nowMs = now.getTime();
    return writeTransaction(this.#db, async (trx) => {
      const row = await selectToken(trx, tokenHash);
      if (!row || Number(row.expires_at) <= nowMs) return { outcome: 'invalid' } as const;
      const next = typeof nextOrDerive === 'function' ? nextOrDerive(row.secret) : nextOrDerive;
      // Only one of concurrent rotations retires the token; the others see it retired (just
      // now: within the grace) once the winner commits.
      const retired = await trx
        .updateTable('refresh_tokens')
        .set({ retired_at: nowMs })
        .where('token_hash', '=', tokenHash)
        .where('retired_at', 'is', null)
        .executeTakeFirst();
      if (retired.numUpdatedRows === 0n) {
        const retiredAt = Number((await selectToken(trx, tokenHash))?.retired_at ?? nowMs);
        if (nowMs - retiredAt > graceMs) {
          await trx.rollback().execute();
          return { outcome: 'reused', token: toRefreshToken(row) } as const;
        }
      }
      // Extending the family locks its row until commit: a concurrent revocation (a delete of
      // that row, cascading to its tokens) either ran before and left nothing to extend, or
      // waits and then removes the token added here too.
      const family = await trx
        .updateTable('refresh_token_families')
        // A refresh is the session's last use as its list shows it (never each access token's use).
        .set({ expires_at: next.expiresAt.getTime(), last_used_at: nowMs })
        .where('id', '=', row.family_id)
        .executeTakeFirst();
      if (family.numUpdatedRows === 0n) {
        await trx.rollback().execute();
        return { outcome: 'invalid' } as const;
      }
      // A repeat within the grace derives the successor the first rotation added: it is
      // answered again, never a second live branch of the family (issue 23, item 9).
      await trx
        .insertInto('refresh_tokens')
        .values({
          token_hash: next.tokenHash,
          family_id: row.family_id,
          expires_at: next.expiresAt.getTime(),
        })
        .onConflict((conflict) => conflict.column('token_hash').doNothing())
        .execute();
      if (retired.numUpdatedRows === 0n) {
        const successor = await selectToken(trx, next.tokenHash);
        // Already rotated in turn: the client moved on, and a third token would be a branch.
        if (successor?.retired_at !== null) {
          await trx.rollback().execute();
          return { outcome: 'invalid' } as const;
        }
      }
      return { outcome: 'rotated', token: toRefreshToken(row) } as const;
    });
  }

  async deleteFamily(familyId: string, event?: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const result = await trx
        .deleteFrom('refresh_token_families')
        .where('id', '=', familyId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }

  async deleteUserFamilies(projectId: string, userId: string, exceptFamilyId?: string): Promise<number> {
    let query = this.#db
      .deleteFrom('refresh_token_families')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId);
    if (exceptFamilyId !== undefined) query = query.where('id', '!=', exceptFamilyId);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  listUserFamilies(projectId: string, userId: string, now: Date, limit: number): Promise<FamilySummary[]> {
    return listUserFamilies(this.#db, { projectId, userId }, now, limit);
  }

  deleteUserFamily(
    owner: { projectId: string; userId: string },
    familyId: string,
    now: Date,
    event: NewEvent,
  ): Promise<boolean> {
    return deleteUserFamily(this.#db, owner, familyId, now, event);
  }

  deleteUserFamiliesNoting(
    owner: { projectId: string; userId: string },
    options: { exceptFamilyId?: string; now: Date; toEvent: (family: FamilySummary) => NewEvent },
  ): Promise<number> {
    return deleteUserFamiliesNoting(this.#db, owner, options);
  }

  deleteExpired(now: Date, limit: number): Promise<number> {
    return deleteExpiredRows(
      this.#db,
      { table: 'refresh_token_families', key: 'id', deadline: 'expires_at' },
      now,
      limit,
    );
  }

  async findFamilyExpiresAt(familyId: string): Promise<number | undefined> {
    const [row] = await this.#selectFamilyExpiry(familyId);
    return row && Number(row.expires_at);
  }

  async findFamilyCreatedAt(familyId: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('refresh_token_families')
      .select('created_at')
      .where('id', '=', familyId)
      .executeTakeFirst();
    return row && Number(row.created_at);
  }

  async readSessionEpoch(): Promise<number> {
    const [row] = await this.#selectEpoch(sessionEpochId);
    if (row === undefined) throw new Error('access_epoch has no session row: run the migrations');
    return Number(row.value);
  }
}

function selectToken(db: Kysely<DatabaseSchema>, tokenHash: string): Promise<TokenRow | undefined> {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('refresh_token_families', 'refresh_token_families.id', 'refresh_tokens.family_id')
    .select([
      'refresh_tokens.token_hash',
      'refresh_tokens.family_id',
      'refresh_tokens.expires_at',
      'refresh_tokens.retired_at',
      'refresh_token_families.project_id',
      'refresh_token_families.user_id',
      'refresh_token_families.secret',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

function toRefreshToken(row: TokenRow): RefreshToken {
  return {
    tokenHash: row.token_hash,
    familyId: row.family_id,
    projectId: row.project_id,
    userId: row.user_id,
    expiresAt: new Date(Number(row.expires_at)),
    retiredAt: row.retired_at === null ? null : new Date(Number(row.retired_at)),
  };
}
