import { toScanText } from '../../../domain/admission/scan-record.ts';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { PendingUpload } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { insertEvents } from '../events/insert-events.ts';
import type { TransactionRunner } from '../group-commit.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';

/** FileRepository.commitUpload: a stored version becomes the pending upload of an unverified record. */
export function commitUpload(
  transact: TransactionRunner,
  id: string,
  upload: PendingUpload,
  quotas?: QuotaLimits,
  event?: NewEvent,
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
    await trx.updateTable('files').set(toUploadColumns(upload)).where('id', '=', id).execute();
    await insertEvents(trx, [event]);
    const countedBefore = Number(current.upload_size_bytes ?? current.expected_size_bytes ?? 0);
    if (quotas && upload.sizeBytes > countedBefore) {
      const owner = { projectId: current.project_id, userId: current.creator_id };
      await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
    }
    return { replaced: current.upload_blob_version };
  });
}

/**
 * FileRepository.recordUpload: `upload` (the same bytes with the scanner's verdict, issue 42)
 * becomes the pending upload only while the record is unverified and its pending upload is
 * still `expected` (null: none, a direct upload's); the event is written with it. False when
 * another upload or verify came first. With `quotas`, bytes newly counted (a direct upload's,
 * adopted at verify) are checked against them, as a PUT's are at its commit.
 */
export function recordUpload(
  transact: TransactionRunner,
  id: string,
  expected: string | null,
  upload: PendingUpload,
  event?: NewEvent,
  quotas?: QuotaLimits,
): Promise<boolean> {
  return transact(async (trx) => {
    const updated = await trx
      .updateTable('files')
      .set(toUploadColumns(upload))
      .where('id', '=', id)
      .where('verified', '=', 0)
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

/**
 * Bytes adopted from a direct upload count from the moment they are recorded (only a declared
 * length was counted before, as a reservation): past a quota they are refused (QUOTA_EXCEEDED,
 * the transaction rolled back), as a PUT's bytes are at its commit.
 */
export async function assertAdoptedWithin(
  trx: Parameters<Parameters<TransactionRunner>[0]>[0],
  row: { expected_size_bytes: number | null; project_id: string; creator_id: string },
  upload: PendingUpload,
  quotas: QuotaLimits | undefined,
): Promise<void> {
  if (!quotas || upload.sizeBytes <= Number(row.expected_size_bytes ?? 0)) return;
  const owner = { projectId: row.project_id, userId: row.creator_id };
  await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
}

/** A pending upload as the upload_* columns of `files` and `version_uploads` hold it. */
export function toUploadColumns(upload: PendingUpload) {
  return {
    upload_blob_version: upload.blobVersion,
    upload_etag: upload.etag,
    upload_size_bytes: upload.sizeBytes,
    upload_content_type: upload.contentType,
    upload_last_modified: upload.lastModified.getTime(),
    upload_sha256: upload.checksumSha256 ?? null,
    upload_crc32: upload.crc32 ?? null,
    upload_scan: toScanText(upload.scan),
    // New bytes are a new question for the admission hook (issue 42).
    upload_admission: null,
  };
}
