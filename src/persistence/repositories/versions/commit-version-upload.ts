import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { PendingUpload } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { assertAdoptedWithin, toUploadColumns } from '../files/commit-upload.ts';
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
  event?: NewEvent,
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
    await trx.updateTable('version_uploads').set(toUploadColumns(upload)).where('id', '=', id).execute();
    await insertEvents(trx, [event]);
    const countedBefore = Number(current.upload_size_bytes ?? current.expected_size_bytes ?? 0);
    if (quotas && upload.sizeBytes > countedBefore) {
      const owner = { projectId: current.project_id, userId: current.creator_id };
      await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
    }
    return { replaced: current.upload_blob_version };
  });
}

/** VersionRepository.recordUpload: `upload` replaces the pending bytes only while they are still `expected`. */
export function recordVersionUpload(
  db: Kysely<DatabaseSchema>,
  id: string,
  expected: string | null,
  upload: PendingUpload,
  event?: NewEvent,
  quotas?: QuotaLimits,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('version_uploads')
      .set(toUploadColumns(upload))
      .where('id', '=', id)
      .where((eb) =>
        expected === null ? eb('upload_blob_version', 'is', null) : eb('upload_blob_version', '=', expected),
      )
      // A verdict is recorded once: racing verifies that scanned the same bytes record nothing more.
      .where('upload_scan', 'is', null)
      .returning(['expected_size_bytes', 'project_id', 'creator_id'])
      .executeTakeFirst();
    if (updated === undefined) return false;
    await insertEvents(trx, [event]);
    await assertAdoptedWithin(trx, updated, upload, quotas);
    return true;
  });
}
