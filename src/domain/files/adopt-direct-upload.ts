import { contentMismatch } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { toContentType } from './content-type.ts';
import type { FileRecord, PendingUpload } from './file-record.ts';
import { discardBlob } from './file-stores.ts';
import { toStorageKey } from './storage-key.ts';

/** Direct-upload mode: the client PUT to the store itself; copy what it holds into a version. */
export async function adoptDirectUpload(
  options: { blobs: BlobStore; directUploads?: boolean },
  file: FileRecord,
  etag: string,
): Promise<PendingUpload | undefined> {
  const { blobs } = options;
  if (!options.directUploads || !blobs.adoptDirectUpload) return undefined;
  const adopted = await blobs.adoptDirectUpload(toStorageKey(file), etag);
  if (!adopted) return undefined;
  // The store checked the signed length and checksum (see docs/architecture.md for stores
  // that do not): the declared checksum is the content's.
  const { sizeBytes, contentType } = file.declared;
  if (sizeBytes !== null && adopted.sizeBytes !== sizeBytes) {
    await discardBlob(blobs, toStorageKey(file), adopted.version);
    throw contentMismatch(`length: ${adopted.sizeBytes} bytes, declared ${sizeBytes}`);
  }
  return {
    blobVersion: adopted.version,
    etag: adopted.etag,
    sizeBytes: adopted.sizeBytes,
    contentType: toContentType(contentType ?? undefined, file.filePath),
    lastModified: adopted.lastModified,
    checksumSha256: file.declared.checksumSha256,
  };
}
