import type { Kysely } from 'kysely';
import type { PendingUpload } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { writeTransaction } from '../write-transaction.ts';

/**
 * VersionRepository.commitUpload: a stored blob version becomes the upload's pending bytes, as
 * FileRepository.commitUpload does for a new file (the last PUT to commit wins; the one it
 * replaced is answered for removal). The row is locked first, so concurrent PUTs each replace
 * exactly the one before.
 */
export function commitVersionUpload(
  db: Kysely<DatabaseSchema>,
  id: string,
  upload: PendingUpload,
  quotas?: QuotaLimits,
): Promise<{ replaced: string | null } | 'missing'> {
  return writeTransaction(db, async (trx) => {
    const current = await trx
      .updateTable('version_uploads')
      .set((eb) => ({ upload_blob_version: eb.ref('upload_blob_version') }))
      .where('id', '=', id)
      .returning([
        'upload_blob_version',
        'upload_size_bytes',
        'expected_size_bytes',
        'project_id',
        'creator_id',
      ])
      .executeTakeFirst();
    if (current === undefined) return 'missing';
    await trx
      .updateTable('version_uploads')
      .set({
        upload_blob_version: upload.blobVersion,
        upload_etag: upload.etag,
        upload_size_bytes: upload.sizeBytes,
        upload_content_type: upload.contentType,
        upload_last_modified: upload.lastModified.getTime(),
        upload_sha256: upload.checksumSha256 ?? null,
        upload_crc32: upload.crc32 ?? null,
      })
      .where('id', '=', id)
      .execute();
    const countedBefore = Number(current.upload_size_bytes ?? current.expected_size_bytes ?? 0);
    if (quotas && upload.sizeBytes > countedBefore) {
      const owner = { projectId: current.project_id, userId: current.creator_id };
      await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
    }
    return { replaced: current.upload_blob_version };
  });
}
