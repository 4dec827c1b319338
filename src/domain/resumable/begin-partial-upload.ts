import { toContentType } from '../files/content-type.ts';
import type { FileRecord } from '../files/file-record.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { PartialBlobStore } from './partial-blob-store.ts';
import type { ResumableUpload } from './resumable-upload.ts';

/**
 * Starts the store's side of a new upload of the record's `length` bytes (a temp file, an S3
 * multipart upload) and answers the upload's row, not yet written: tus uploads and parallel
 * S3 uploads begin alike and differ only in their id and expiry.
 */
export async function beginPartialUpload(
  options: { partials: PartialBlobStore; newBlobVersion: () => string },
  file: FileRecord,
  upload: { id: string; length: number; now: Date; expiresAt: Date },
): Promise<ResumableUpload> {
  const { length } = upload;
  const blob = { key: toStorageKey(file), version: options.newBlobVersion(), length };
  const contentType = toContentType(file.declared.contentType ?? undefined, file.filePath);
  const storeState = await options.partials.begin(blob, contentType);
  return {
    id: upload.id,
    projectId: file.projectId,
    fileId: file.id,
    creatorId: file.creatorId,
    blobVersion: blob.version,
    length,
    offset: 0,
    storeState,
    sha256State: null,
    crc32State: null,
    state: 'receiving',
    etag: null,
    expiresAt: upload.expiresAt,
    createdAt: upload.now,
  };
}
