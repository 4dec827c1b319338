import type { Kysely } from 'kysely';
import type { SweptUpload } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

/** FileRepository.deleteExpiredUnverified: the sweep of never-verified records (issue 10, item 11). */
export async function deleteExpiredUnverified(
  db: Kysely<DatabaseSchema>,
  expiredBefore: number,
  limit: number,
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
  const deleted = await db
    .deleteFrom('files')
    .where(
      'id',
      'in',
      candidates.map((row) => row.id),
    )
    .where('verified', '=', 0)
    .where('upload_expires_at', '<', expiredBefore)
    .returning(['id', 'project_id', 'upload_blob_version'])
    .execute();
  return deleted.map((row) => ({
    id: row.id,
    projectId: row.project_id,
    pendingBlobVersion: row.upload_blob_version,
  }));
}
