import type { Readable } from 'node:stream';
import { CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import type { StoredBlob } from '../domain/blobs/blob-store.ts';
import type {
  CompleteOptions,
  PartialBlob,
  PartialBlobStore,
} from '../domain/resumable/partial-blob-store.ts';
import { unavailable } from '../errors/errors.ts';
import { toBlobStoreError } from './s3-errors.ts';
import type { S3Area } from './s3-listings.ts';
import { appendParts } from './s3-part-writer.ts';
import { abortParts, completeParts } from './s3-partial-completion.ts';
import { deleteParkedBytes } from './s3-partial-tails.ts';
import { toPartSizeBytes, toS3PartialUpload, toS3VersionKey, toStoreState } from './s3-partial-upload.ts';

export type S3PartialStoreOptions = S3Area & {
  /** The size of every part but the last (default 8 MiB): the memory an append holds. */
  partSizeBytes?: number;
};

const MiB = 1024 * 1024;
/** S3 refuses parts under 5 MiB but the last: with smaller parts no upload could complete. */
const MIN_PART_BYTES = 5 * MiB;

/**
 * Resumable uploads' bytes in an S3 multipart upload of the version's object (the S3BlobStore's
 * bucket and prefix), in parts of one fixed size, with the start of a part that is not full
 * yet parked in an object of its own (s3-partial-tails.ts). Nothing is spooled to local disk.
 */
export class S3PartialStore implements PartialBlobStore {
  readonly #area: S3Area;
  readonly #partSizeBytes: number;

  constructor(options: S3PartialStoreOptions) {
    const { partSizeBytes = 8 * MiB, ...area } = options;
    if (partSizeBytes < MIN_PART_BYTES) throw new RangeError(`S3 parts are at least 5 MiB: ${partSizeBytes}`);
    this.#area = area;
    this.#partSizeBytes = partSizeBytes;
  }

  async begin(blob: Omit<PartialBlob, 'storeState'>, contentType: string): Promise<string> {
    const { client, bucket } = this.#area;
    const Key = toS3VersionKey(this.#area, blob);
    const created = await client
      .send(new CreateMultipartUploadCommand({ Bucket: bucket, Key, ContentType: contentType }))
      .catch((error: unknown) => {
        throw toBlobStoreError(error);
      });
    if (!created.UploadId) throw unavailable('blob store', new Error(`no UploadId for ${Key}`));
    return toStoreState(created.UploadId, toPartSizeBytes(this.#partSizeBytes, blob.length));
  }

  async append(blob: PartialBlob, offset: number, body: Readable, options: { signal?: AbortSignal } = {}) {
    return appendParts(toS3PartialUpload(this.#area, blob), offset, body, options.signal);
  }

  async complete(blob: PartialBlob, options: CompleteOptions): Promise<StoredBlob> {
    const upload = toS3PartialUpload(this.#area, blob);
    const stored = await completeParts(upload, options.contentType);
    // Best effort: the tails are of no use now, and cleanUp() after the commit tries again.
    await deleteParkedBytes(upload).catch(() => {});
    return stored;
  }

  async abort(blob: PartialBlob): Promise<void> {
    const upload = toS3PartialUpload(this.#area, blob);
    await abortParts(upload);
    await deleteParkedBytes(upload);
  }

  async cleanUp(blob: PartialBlob): Promise<void> {
    await deleteParkedBytes(toS3PartialUpload(this.#area, blob));
  }
}
