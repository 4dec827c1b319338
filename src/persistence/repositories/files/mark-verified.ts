import { toScanText } from '../../../domain/admission/scan-record.ts';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { FileRepository } from '../../../domain/files/file-repository.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { isSummarizedType } from '../../../domain/renditions/renderable-source.ts';
import { insertEvents } from '../events/insert-events.ts';
import type { TransactionRunner } from '../group-commit.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { findFileById } from './file-rows.ts';

/** What FileRepository.markVerified pins: the version, its ETag and content, and the pending upload it was. */
export type Verification = Parameters<FileRepository['markVerified']>[1];

/** FileRepository.markVerified: the pending upload, if still the one given, becomes the record's content. */
export function markVerified(
  transact: TransactionRunner,
  id: string,
  verification: Verification,
  now: Date,
  quotas?: QuotaLimits,
): Promise<FileRecord | undefined> {
  const { blobVersion, etag, content, contentCrc32, scan, pendingVersion, event } = verification;
  return transact(async (trx) => {
    const updated = await trx
      .updateTable('files')
      .set((eb) => ({
        verified: 1,
        etag,
        content_size_bytes: content.sizeBytes,
        content_type: content.contentType,
        content_last_modified: content.lastModified.getTime(),
        blob_version: blobVersion,
        upload_blob_version: null,
        upload_etag: null,
        upload_size_bytes: null,
        upload_content_type: null,
        upload_last_modified: null,
        content_sha256: content.checksumSha256 ?? null,
        upload_sha256: null,
        content_crc32: contentCrc32 ?? null,
        upload_crc32: null,
        content_scan: toScanText(scan),
        upload_scan: null,
        upload_admission: null,
        ...(verification.customData !== undefined && {
          custom_data: JSON.stringify(verification.customData),
        }),
        // An image waits for its summary (dimensions, placeholder), made off the request path.
        image_summary_due: isSummarizedType(content.contentType) ? 1 : 0,
        version: eb('version', '+', 1),
        updated_at: now.getTime(),
      }))
      .where('id', '=', id)
      .where('verified', '=', 0)
      .where((eb) =>
        pendingVersion === null
          ? eb('upload_blob_version', 'is', null)
          : eb('upload_blob_version', '=', pendingVersion),
      )
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    const verified = await findFileById(trx, id);
    if (quotas && verified) {
      const owner = { projectId: verified.projectId, userId: verified.creatorId };
      await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
    }
    await insertEvents(trx, [event]);
    return verified;
  });
}
