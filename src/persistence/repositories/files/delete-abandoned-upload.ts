import type { Kysely } from 'kysely';
import type { NewFile } from '../../../domain/files/file-record.ts';
import type { ReplacedUpload } from '../../../domain/files/file-repository.ts';
import { fileExists } from '../../../errors/errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

/**
 * Makes room at the creator's filePath when the record there is an abandoned upload (never
 * verified, link expired at `now`); returns it so the caller can delete its blob after the
 * commit. A live record stays, and the insert that follows fails with FILE_EXISTS.
 */
export async function deleteAbandonedUpload(
  trx: Kysely<DatabaseSchema>,
  file: Pick<NewFile, 'projectId' | 'creatorId' | 'filePath'>,
  now: Date,
): Promise<ReplacedUpload | undefined> {
  const existing = await trx
    .selectFrom('files')
    .select(['id', 'verified', 'upload_expires_at', 'upload_blob_version'])
    .where('project_id', '=', file.projectId)
    .where('creator_id', '=', file.creatorId)
    .where('file_path', '=', file.filePath)
    .executeTakeFirst();
  if (existing === undefined) return undefined;
  const abandoned = existing.verified === 0 && existing.upload_expires_at < now.getTime() / 1000;
  if (!abandoned) throw fileExists();
  const deleted = await trx.deleteFrom('files').where('id', '=', existing.id).executeTakeFirst();
  // Zero rows: a concurrent create replaced it first, and our insert will hit its new record.
  return deleted.numDeletedRows > 0n
    ? { id: existing.id, pendingBlobVersion: existing.upload_blob_version }
    : undefined;
}
