import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { SweptUpload } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';

/** FileRepository.deleteExpiredUnverified: the sweep of never-verified records (issue 10, item 11). */
export async function deleteExpiredUnverified(
  db: Kysely<DatabaseSchema>,
  expiredBefore: number,
  limit: number,
  eventOf?: (swept: SweptUpload) => NewEvent,
): Promise<SweptUpload[]> {
  // Read from the partial index (migration unverified-expiry-index), then one delete that
  // re-checks the condition: no transaction held across the batch, and a record verified in
  // between is not touched. RETURNING answers what each deleted row still held.
  const candidates = await db
    .selectFrom('files')
    .select('id')
    .where('verified', '=', 0)
    .where('upload_expires_at', '<', expiredBefore)
    .orderBy('upload_expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (candidates.length === 0) return [];
  // The delete and its events (upload.expired) commit together.
  return writeTransaction(db, async (trx) => {
    const swept = await deleteStillExpired(trx, candidates, expiredBefore);
    if (eventOf) await insertEvents(trx, swept.map(eventOf));
    return swept;
  });
}

async function deleteStillExpired(
  db: Kysely<DatabaseSchema>,
  candidates: { id: string }[],
  expiredBefore: number,
): Promise<SweptUpload[]> {
  const deleted = await db
    .deleteFrom('files')
    .where(
      'id',
      'in',
      candidates.map((row) => row.id),
    )
    .where('verified', '=', 0)
    .where('upload_expires_at', '<', expiredBefore)
    .returning(['id', 'project_id', 'upload_blob_version', 'file_path', 'creator_id'])
    .execute();
  return deleted.map((row) => ({
    id: row.id,
    projectId: row.project_id,
    pendingBlobVersion: row.upload_blob_version,
    filePath: row.file_path,
    creatorId: row.creator_id,
  }));
}
