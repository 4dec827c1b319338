import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { CustomData } from './custom-data.ts';
import { type FileRecord, type PendingUpload, toPinnedContent } from './file-record.ts';
import { discardBlob, type FileStores } from './file-stores.ts';
import { toStorageKey } from './storage-key.ts';
import type { UploadLimits } from './upload-limits.ts';

/** Pins `pinned` as the file's content: undefined if another upload or verify committed first. */
export async function markUploadVerified(
  o: FileStores & { limits: Pick<UploadLimits, 'quotasOf'> },
  principal: Principal,
  file: FileRecord,
  pinned: PendingUpload,
  customData?: CustomData,
): Promise<FileRecord | undefined> {
  const now = o.clock.now();
  // Recorded as the verify commits: the bytes are durable and the file readable from then on.
  const event = toFileEvent('file.uploaded', principal, file, now, {
    sizeBytes: pinned.sizeBytes,
    contentType: pinned.contentType,
    etag: pinned.etag,
  });
  return o.files
    .markVerified(
      file.id,
      {
        blobVersion: pinned.blobVersion,
        etag: pinned.etag,
        content: toPinnedContent(pinned),
        // Bytes adopted from a direct upload never passed through Coffer: none (null).
        contentCrc32: pinned.crc32 ?? null,
        scan: pinned.scan ?? null,
        ...(customData && { customData }),
        pendingVersion: file.pendingUpload?.blobVersion ?? null,
        event,
      },
      now,
      // Direct uploads count their bytes only from here: the quotas are checked with them.
      file.pendingUpload ? undefined : await o.limits.quotasOf(file.projectId),
    )
    .catch(async (error: unknown) => {
      if (!file.pendingUpload) await discardBlob(o.blobs, toStorageKey(file), pinned.blobVersion);
      throw error;
    });
}
