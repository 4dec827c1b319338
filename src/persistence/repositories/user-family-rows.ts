import type { Kysely } from 'kysely';
import type { NewEvent } from '../../domain/events/event.ts';
import type { FamilySummary } from '../../domain/identity/refresh-token-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { insertEvents } from './events/insert-events.ts';
import { writeTransaction } from './write-transaction.ts';

/** Families ended per transaction by an "end all": a user with thousands holds no lock long. */
const endBatch = 500;

type Owner = { projectId: string; userId: string };

/** A user's sessions (refresh-token families) as they see and end them (issue 41, item 4). */
function selectFamilies(db: Kysely<DatabaseSchema>, owner: Owner) {
  return db
    .selectFrom('refresh_token_families')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'ip', 'user_agent', 'method'])
    .where('project_id', '=', owner.projectId)
    .where('user_id', '=', owner.userId);
}

type FamilyRow = {
  id: string;
  created_at: number;
  last_used_at: number | null;
  ip: string | null;
  user_agent: string | null;
  method: string | null;
};

function toFamilySummary(row: FamilyRow): FamilySummary {
  const createdAt = Number(row.created_at);
  return {
    id: row.id,
    createdAt,
    lastUsedAt: row.last_used_at === null ? createdAt : Number(row.last_used_at),
    ip: row.ip,
    userAgent: row.user_agent,
    method: row.method,
  };
}

/** The user's live families, newest first (the (project_id, user_id) index finds them). */
export async function listUserFamilies(
  db: Kysely<DatabaseSchema>,
  owner: Owner,
  now: Date,
  limit: number,
): Promise<FamilySummary[]> {
  const rows = await selectFamilies(db, owner)
    .where('expires_at', '>', now.getTime())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toFamilySummary);
}

/** Deletes one live family of the owner, with its event; false for any other id (no oracle). */
export function deleteUserFamily(
  db: Kysely<DatabaseSchema>,
  owner: Owner,
  familyId: string,
  now: Date,
  event: NewEvent,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const result = await trx
      .deleteFrom('refresh_token_families')
      .where('id', '=', familyId)
      .where('project_id', '=', owner.projectId)
      .where('user_id', '=', owner.userId)
      .where('expires_at', '>', now.getTime())
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await insertEvents(trx, [event]);
    return true;
  });
}

/** Deletes every family of the owner but one, in batches; an event for each live one. */
export async function deleteUserFamiliesNoting(
  db: Kysely<DatabaseSchema>,
  owner: Owner,
  options: { exceptFamilyId?: string; now: Date; toEvent: (family: FamilySummary) => NewEvent },
): Promise<number> {
  const nowMs = options.now.getTime();
  let ended = 0;
  for (;;) {
    const batch = await writeTransaction(db, async (trx) => {
      let query = selectFamilies(trx, owner).limit(endBatch);
      if (options.exceptFamilyId !== undefined) query = query.where('id', '!=', options.exceptFamilyId);
      const rows = await query.execute();
      if (rows.length === 0) return { rows: 0, live: 0 };
      await trx
        .deleteFrom('refresh_token_families')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      // An expired family's session had ended already: it goes without an event.
      const live = rows.filter((row) => Number(row.expires_at) > nowMs);
      await insertEvents(
        trx,
        live.map((row) => options.toEvent(toFamilySummary(row))),
      );
      return { rows: rows.length, live: live.length };
    });
    ended += batch.live;
    if (batch.rows < endBatch) return ended;
  }
}
