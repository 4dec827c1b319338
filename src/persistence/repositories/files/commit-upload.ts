import type { PendingUpload } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import type { TransactionRunner } from '../group-commit.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';

/** FileRepository.commitUpload: a stored version becomes the pending upload of an unverified record. */
export function commitUpload(
  transact: TransactionRunner,
  id: string,
  upload: PendingUpload,
  quotas?: QuotaLimits,
): Promise<{ replaced: string | null } | 'verified' | 'missing'> {
  return transact(async (trx) => {
    // A no-op update first: it locks the row (PostgreSQL; SQLite's BEGIN IMMEDIATE holds the
    // whole database) until commit, and answers the pending upload this commit replaces,
    // read after any concurrent commit. The condition lives in the database, so a PUT that
    // ends after verify (on any process or node) can never change a verified record.
    const current = await trx
      .updateTable('files')
      .set((eb) => ({ upload_blob_version: eb.ref('upload_blob_version') }))
      .where('id', '=', id)
      .where('verified', '=', 0)
      .returning([
        'upload_blob_version',
        'upload_size_bytes',
        'expected_size_bytes',
        'project_id',
        'creator_id',
      ])
      .executeTakeFirst();
    if (current === undefined) {
      const now = await trx.selectFrom('files').select('verified').where('id', '=', id).executeTakeFirst();
      return now === undefined ? 'missing' : 'verified';
    }
    await trx
      .updateTable('files')
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
