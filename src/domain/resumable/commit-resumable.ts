import { isAppError } from '../../errors/app-error.ts';
import { alreadyVerified, uploadNotFound } from '../../errors/errors.ts';
import type { StoredBlob } from '../blobs/blob-store.ts';
import { toContentType } from '../files/content-type.ts';
import type { FileRecord, PendingUpload } from '../files/file-record.ts';
import { discardBlob } from '../files/file-stores.ts';
import type { FileEvents } from '../files/file-uploads-options.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { PartialBlob, PartialBlobStore } from './partial-blob-store.ts';
import type { ResumableUpload } from './resumable-upload.ts';
import type { ResumableUploadRepository } from './resumable-upload-repository.ts';
import type { RunningDigest } from './running-digests.ts';
import { checkStoredContent, hashStoredVersion, type StoredContentOptions } from './stored-content.ts';
import type { UploadTargets } from './upload-targets.ts';

export type CommitOptions = StoredContentOptions & {
  /** The records uploads go to: new files, and new versions of files (upload-targets.ts). */
  targets: UploadTargets;
  uploads: ResumableUploadRepository;
  partials: PartialBlobStore;
  events?: FileEvents;
};

/**
 * The last byte arrived: the bytes become the target's upload exactly as a PUT's do
 * (FileUploads.acceptUpload, VersionUploads.acceptUpload), under the upload's lease. Idempotent, so a client's zero-length
 * PATCH retries it after any failure: the store publishes once (complete() answers the same
 * version again), the record takes the version once (a commit already done is recognised),
 * and the upload row says `committed` last. Answers the quoted ETag, as a PUT would.
 */
export async function commitResumable(
  options: CommitOptions,
  upload: ResumableUpload,
  blob: PartialBlob,
  running: RunningDigest | undefined,
): Promise<string> {
  // Finished first: whatever fails next, no digest is left open on the hashing thread.
  const sha256 = running && (await running.sha256.digest());
  const runningCrc32 = running ? running.crc32 : undefined;
  const file = await options.targets.findById(upload.fileId);
  if (!file) throw uploadNotFound();
  const committed = committedEtag(file, upload);
  if (committed) return markCommitted(options, upload, blob, committed);
  if (file.verified) throw alreadyVerified();
  const contentType = toContentType(file.declared.contentType ?? undefined, file.filePath);
  // The one digest of the bytes: the file's checksum, and the disk store's ETag (content-etag.ts).
  const stored = await options.partials.complete(blob, { contentType, ...(sha256 && { sha256 }) });
  const digests = sha256 && { sha256: sha256.toString('base64'), crc32: runningCrc32 ?? null };
  const pending = await checkPublished(options, file, stored, digests).catch(async (error: unknown) => {
    await refuse(options, upload, blob, error);
    throw error;
  });
  const outcome = await options.targets.commitUpload(
    file.id,
    pending,
    await options.limits.quotasOf(file.projectId),
  );
  if (outcome === 'missing') throw uploadNotFound();
  if (outcome === 'verified') {
    await refuse(options, upload, blob, alreadyVerified());
    throw alreadyVerified();
  }
  options.events?.uploadCommitted(stored.sizeBytes);
  if (outcome.replaced) await discardBlob(options.blobs, toStorageKey(file), outcome.replaced);
  return markCommitted(options, upload, blob, stored.etag);
}

/** The published version held to the upload's contract: the record's pending upload, or a 4xx. */
async function checkPublished(
  options: CommitOptions,
  file: FileRecord,
  stored: StoredBlob,
  running: { sha256: string; crc32: number | null } | undefined,
): Promise<PendingUpload> {
  const digests = running ?? (await hashStoredVersion(options, toStorageKey(file), stored.version));
  const checksumSha256 = digests.sha256;
  const contentType = await checkStoredContent(options, file, stored, checksumSha256);
  return {
    blobVersion: stored.version,
    etag: stored.etag,
    sizeBytes: stored.sizeBytes,
    contentType,
    lastModified: stored.lastModified,
    checksumSha256,
    crc32: digests.crc32,
  };
}

/**
 * The ETag the record holds this upload's bytes with (a repeated commit, or a HEAD after it),
 * if they are still its content.
 */
export function committedEtag(file: FileRecord, upload: ResumableUpload): string | undefined {
  if (file.pendingUpload?.blobVersion === upload.blobVersion) return file.pendingUpload.etag;
  if (file.verified && file.blobVersion === upload.blobVersion && file.etag) return file.etag;
  return undefined;
}

async function markCommitted(
  options: CommitOptions,
  upload: ResumableUpload,
  blob: PartialBlob,
  etag: string,
): Promise<string> {
  await options.uploads.markCommitted(upload.id, etag);
  await options.partials.cleanUp(blob).catch(() => {}); // leftovers go with the row's expiry
  return etag;
}

/**
 * Bytes the contract refuses (a checksum, a type) can never become the file: the upload ends
 * with them. A store or database failure is not a refusal: the upload stays, to be retried.
 */
async function refuse(options: CommitOptions, upload: ResumableUpload, blob: PartialBlob, error: unknown) {
  if (!isAppError(error) || error.statusCode >= 500) return;
  await discardBlob(options.blobs, blob.key, blob.version);
  await options.partials.abort(blob).catch(() => {});
  await options.uploads.delete(upload.id);
}
