import type { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import type { StoredBlob } from '../domain/blobs/blob-store.ts';
import type {
  AppendOptions,
  CompleteOptions,
  DirectParts,
  DirectRequest,
  PartialBlob,
  PartialBlobStore,
  PresignedPart,
  StoredPart,
} from '../domain/resumable/partial-blob-store.ts';
import { unavailable } from '../errors/errors.ts';
import { isS3NotFound, toBlobStoreError } from './s3-errors.ts';
import type { S3Area } from './s3-listings.ts';
import { S3PartPresigner } from './s3-part-presigner.ts';
import { appendParts } from './s3-part-writer.ts';
import { abortParts, completeParts } from './s3-partial-completion.ts';
import { deleteParkedBytes } from './s3-partial-tails.ts';
import {
  toPartCount,
  toPartSizeBytes,
  toS3PartialUpload,
  toS3VersionKey,
  toStoreState,
} from './s3-partial-upload.ts';

export type S3PartialStoreOptions = S3Area & {
  /**
   * The size of every part but the last: the memory an append holds. Default S3's smallest,
   * 5 MiB, so chunks of a multiple of it (the bench's 5 MiB, @coffer/client's 10 MiB) fill
   * whole parts and nothing is parked and read back.
   */
  partSizeBytes?: number;
};

const MiB = 1024 * 1024;
/** S3 refuses parts under 5 MiB but the last: with smaller parts no upload could complete. */
const MIN_PART_BYTES = 5 * MiB;

/**
 * Resumable uploads' bytes in an S3 multipart upload of the version's object (the S3BlobStore's
 * bucket and prefix), in parts of one fixed size, with the start of a part that is not full
 * yet parked in an object of its own (s3-partial-tails.ts). Nothing is spooled to local disk.
 * Clients may also PUT the parts straight to S3 (presignParts, listParts): the same layout, so
 * complete() publishes either way.
 */
export class S3PartialStore implements PartialBlobStore {
  readonly #area: S3Area;
  readonly #partSizeBytes: number;
  readonly #presigner: S3PartPresigner;

  constructor(options: S3PartialStoreOptions) {
    const { partSizeBytes = MIN_PART_BYTES, ...area } = options;
    if (partSizeBytes < MIN_PART_BYTES) throw new RangeError(`S3 parts are at least 5 MiB: ${partSizeBytes}`);
    this.#area = area;
    this.#partSizeBytes = partSizeBytes;
    this.#presigner = new S3PartPresigner(area);
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

  async append(blob: PartialBlob, offset: number, body: Readable, options: AppendOptions = {}) {
    return appendParts(toS3PartialUpload(this.#area, blob), offset, body, options);
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

  async presignParts(blob: PartialBlob, options: { expiresInSeconds: number }) {
    const upload = toS3PartialUpload(this.#area, blob);
    const parts: PresignedPart[] = [];
    for (let partNumber = 1; partNumber <= toPartCount(upload); partNumber++) {
      const url = await this.#presigner.presign(upload, partNumber, options.expiresInSeconds);
      parts.push({ partNumber, url });
    }
    return { uploadId: upload.uploadId, partSizeBytes: upload.partSizeBytes, parts };
  }

  async presignRequest(blob: PartialBlob, request: DirectRequest, options: { expiresInSeconds: number }) {
    const upload = toS3PartialUpload(this.#area, blob);
    const { expiresInSeconds } = options;
    const url =
      request.operation === 'UploadPart'
        ? await this.#presigner.presign(upload, request.partNumber, expiresInSeconds)
        : await this.#presigner.presignOnUpload(upload, request.operation, expiresInSeconds);
    return { url, uploadId: upload.uploadId, partCount: toPartCount(upload) };
  }

  async listParts(blob: PartialBlob): Promise<DirectParts<StoredPart> | undefined> {
    const upload = toS3PartialUpload(this.#area, blob);
    const { area, versionKey: Key, uploadId: UploadId } = upload;
    const parts: StoredPart[] = [];
    let PartNumberMarker: string | undefined;
    do {
      const command = new ListPartsCommand({ Bucket: area.bucket, Key, UploadId, PartNumberMarker });
      const page = await area.client.send(command).catch((error: unknown) => {
        if (isS3NotFound(error)) return undefined;
        throw toBlobStoreError(error);
      });
      if (!page) return undefined;
      for (const { PartNumber, Size, ETag } of page.Parts ?? [])
        parts.push({ partNumber: PartNumber ?? 0, sizeBytes: Size ?? 0, etag: ETag ?? '' });
      // IsTruncated, not NextPartNumberMarker: Ceph RGW sets the marker on the last page too.
      PartNumberMarker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (PartNumberMarker !== undefined);
    return { uploadId: UploadId, partSizeBytes: upload.partSizeBytes, parts };
  }
}
