import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type {
  AdoptedBlob,
  BlobInfo,
  BlobStore,
  ByteRange,
  PresignDownloadOptions,
  PresignUploadOptions,
  PutBlobOptions,
  StoredBlob,
} from '../domain/blobs/blob-store.ts';
import type { BlobSweeper, StoredObject, UnfinishedWrite } from '../domain/blobs/blob-sweeper.ts';
import type { Closable } from '../domain/closable.ts';
import { toAttachmentDisposition } from '../domain/files/content-disposition.ts';
import { etagMismatch, unavailable } from '../errors/errors.ts';
import { assertValidBlobKey, newBlobVersion, toVersionName } from './blob-key.ts';
import { isS3NotFound, isS3PreconditionFailed, isS3StorageFull, toBlobStoreError } from './s3-errors.ts';
import { listS3MultipartUploads, listS3Objects, type S3Area } from './s3-listings.ts';
import { toBlobInfo, toFullObjectSha256 } from './s3-object-headers.ts';
import { writeS3Object } from './s3-object-writer.ts';
import { S3Presigner } from './s3-presigner.ts';
import type { S3Location } from './s3-storage-url.ts';
import { sendPayloadsUnsigned } from './s3-unsigned-payload.ts';

export { parseS3StorageUrl } from './s3-storage-url.ts';

export type S3BlobStoreOptions = Omit<S3Location, 'forcePathStyle'> & {
  forcePathStyle?: boolean;
  /** Omitted: the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
};

/** The readiness probe's body: small, and removed again at once. */
const PROBE_BYTES = Buffer.alloc(4096);
const SILENT_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2) through AWS SDK v3. Version
 * `v` of key `p/f` is the object `<prefix>p/f.v`, written once. In direct-upload mode the
 * client PUTs to the staging object `<prefix>p/f`, which verify copies into a version.
 */
export class S3BlobStore implements BlobStore, BlobSweeper, Closable {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  /** One probe object per store instance (its name never parses as a blob key: the dot). */
  readonly #probeKey: string;
  readonly #area: S3Area;
  readonly #presigner: S3Presigner;

  constructor(options: S3BlobStoreOptions) {
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix}/` : '';
    this.#probeKey = `${this.#prefix}.coffer-readiness/${randomBytes(8).toString('hex')}`;
    this.#client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      followRegionRedirects: true,
      // The SDK's default CRC32 trailers are not understood by every S3-compatible store, and a
      // presigned PUT would carry the checksum of an empty body; MD5 ETags are what we check.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK's default logger drops everything but a warning it prints to the console for
      // every PutObject whose body fails: a refused or abandoned upload, answered and logged
      // by Coffer already.
      logger: SILENT_LOGGER,
    });
    sendPayloadsUnsigned(this.#client);
    this.#area = { client: this.#client, bucket: this.#bucket, prefix: this.#prefix };
    // Links are signed without the SDK's per-call machinery, with the credentials it resolves
    // (and refreshes: roles, profiles), into the same URLs its presigner would write.
    const client = this.#client;
    this.#presigner = new S3Presigner({
      bucket: options.bucket,
      region: options.region,
      ...(options.endpoint && { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: () => client.config.credentials(),
    });
  }

  /** Its client, bucket and key prefix: for the resumable uploads' store, which writes versions beside it. */
  get area(): S3Area {
    return this.#area;
  }

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob> {
    const version = newBlobVersion();
    const Key = this.#toVersionKey(key, version);
    const written = await writeS3Object(this.#client, { Bucket: this.#bucket, Key }, body, options);
    // Ceph RGW (Pacific) completes a multipart upload with an empty <ETag/>: the object has one
    // (the parts' "<md5>-<n>"), which a HEAD answers.
    const etag = written.etag || (await this.#headObject(Key))?.ETag;
    if (!etag) throw unavailable('blob store', new Error(`no ETag for ${Key}`));
    // S3 answers a PUT without Last-Modified; the upload's end is within a second of it.
    return { version, sizeBytes: written.sizeBytes, etag, lastModified: new Date() };
  }

  async head(key: string, version: string): Promise<BlobInfo | undefined> {
    const headers = await this.#headObject(this.#toVersionKey(key, version));
    return headers && toBlobInfo(headers);
  }

  /** The range must lie within the object (the gateway checks it against the record first). */
  async get(key: string, version: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const Key = this.#toVersionKey(key, version);
    const { range, signal } = options;
    const Range = range && `bytes=${range.start}-${range.end}`;
    try {
      const output = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key, Range }), {
        abortSignal: signal,
      });
      // With a Range, ContentLength is the part's; the whole object's size ends Content-Range.
      const sizeBytes = Number(output.ContentRange?.split('/')[1] ?? output.ContentLength ?? 0);
      return { info: { ...toBlobInfo(output), sizeBytes }, body: output.Body as Readable };
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw toBlobStoreError(error);
    }
  }

  async delete(key: string, version: string): Promise<void> {
    await this.#deleteObject(this.#toVersionKey(key, version));
  }

  async presignDownload(key: string, version: string, options: PresignDownloadOptions): Promise<string> {
    return this.#presigner.presign({
      method: 'GET',
      key: this.#toVersionKey(key, version),
      expiresInSeconds: options.expiresInSeconds,
      // Response overrides are part of the signature: the link cannot be re-labelled.
      query: {
        'response-content-disposition': toAttachmentDisposition(options.fileName),
        'response-content-type': options.contentType,
      },
    });
  }

  async presignUpload(key: string, options: PresignUploadOptions) {
    return this.#presigner.presign({
      method: 'PUT',
      key: this.#toObjectKey(key),
      expiresInSeconds: options.expiresInSeconds,
      // security: Content-Type is a signed header, so the uploader cannot store another type;
      // so are the declared length and SHA-256 (issue 10, item 6): S3 refuses a PUT whose
      // headers differ (signature) and a body that differs from them (framing, checksum).
      headers: {
        'content-type': options.contentType,
        ...(options.contentLength !== undefined && { 'content-length': String(options.contentLength) }),
        ...(options.checksumSha256 !== undefined && { 'x-amz-checksum-sha256': options.checksumSha256 }),
      },
    });
  }

  async adoptDirectUpload(key: string, etag: string): Promise<AdoptedBlob | undefined> {
    const staging = this.#toObjectKey(key);
    const headers = await this.#headObject(staging, { withChecksum: true });
    if (!headers) return undefined;
    if (headers.ETag !== etag) throw etagMismatch();
    const version = newBlobVersion();
    try {
      // Copied only if the staging object still holds exactly the bytes just compared: a PUT
      // that lands in between makes the copy fail instead of pinning unverified bytes.
      const copied = await this.#client.send(
        new CopyObjectCommand({
          Bucket: this.#bucket,
          Key: this.#toVersionKey(key, version),
          CopySource: `${this.#bucket}/${staging}`,
          CopySourceIfMatch: etag,
        }),
      );
      const lastModified = copied.CopyObjectResult?.LastModified ?? new Date();
      // The copy's own ETag is the same MD5 for single-part objects; keep the one the client knows.
      await this.#deleteObject(staging).catch(() => {});
      const checksumSha256 = toFullObjectSha256(headers);
      return {
        version,
        sizeBytes: headers.ContentLength ?? 0,
        etag,
        lastModified,
        ...(checksumSha256 && { checksumSha256 }),
      };
    } catch (error) {
      if (isS3PreconditionFailed(error)) throw etagMismatch();
      throw toBlobStoreError(error);
    }
  }

  async check(): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
      // A store that answers may still refuse writes (MinIO past its free-space threshold).
      await this.#client.send(
        new PutObjectCommand({ Bucket: this.#bucket, Key: this.#probeKey, Body: PROBE_BYTES }),
      );
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#probeKey }));
    } catch (error) {
      if (isS3StorageFull(error)) throw toBlobStoreError(error);
      // Readiness: a missing bucket or refused credentials make the store as unusable as a network failure.
      throw unavailable('blob store', error);
    }
  }

  listObjects(options: { pageSize: number; signal?: AbortSignal }): AsyncGenerator<StoredObject[]> {
    return listS3Objects(this.#area, options);
  }

  async deleteStaging(key: string): Promise<void> {
    await this.#deleteObject(this.#toObjectKey(key));
  }

  listUnfinishedWrites(options: {
    startedBefore: Date;
    pageSize: number;
    signal?: AbortSignal;
  }): AsyncGenerator<UnfinishedWrite[]> {
    return listS3MultipartUploads(this.#area, options);
  }

  async removeUnfinishedWrite(write: UnfinishedWrite): Promise<void> {
    if (write.kind !== 'multipart-upload' || !write.objectKey.startsWith(this.#prefix)) return;
    try {
      await this.#client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: write.objectKey,
          UploadId: write.uploadId,
        }),
      );
    } catch (error) {
      if (isS3NotFound(error)) return; // NoSuchUpload: finished or aborted meanwhile
      throw toBlobStoreError(error);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  /** With `withChecksum`, the object's checksums too (stores that keep none ignore the ask). */
  async #headObject(Key: string, options: { withChecksum?: boolean } = {}) {
    const ChecksumMode = options.withChecksum ? ('ENABLED' as const) : undefined;
    try {
      return await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key, ChecksumMode }));
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw toBlobStoreError(error);
    }
  }

  async #deleteObject(Key: string): Promise<void> {
    // S3 answers 204 for a missing key too.
    await this.#client
      .send(new DeleteObjectCommand({ Bucket: this.#bucket, Key }))
      .catch((error: unknown) => {
        throw toBlobStoreError(error);
      });
  }

  #toObjectKey(key: string): string {
    assertValidBlobKey(key);
    return `${this.#prefix}${key}`;
  }

  #toVersionKey(key: string, version: string): string {
    return `${this.#prefix}${toVersionName(key, version)}`;
  }
}
