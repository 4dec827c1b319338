import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { toAttachmentDisposition } from '../domain/files/content-disposition.ts';
import type {
  BlobInfo,
  BlobStore,
  ByteRange,
  Closable,
  PresignDownloadOptions,
  PutBlobOptions,
} from '../domain/ports.ts';
import { unavailable } from '../errors/errors.ts';
import { assertValidBlobKey } from './blob-key.ts';
import { MeteredStream } from './metered-stream.ts';
import { isS3NotFound, toBlobStoreError } from './s3-errors.ts';
import type { S3Location } from './s3-storage-url.ts';

export { parseS3StorageUrl } from './s3-storage-url.ts';

export type S3BlobStoreOptions = Omit<S3Location, 'forcePathStyle'> & {
  forcePathStyle?: boolean;
  /** Omitted: the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
};

type ObjectHeaders = { ContentLength?: number; ETag?: string; ContentType?: string; LastModified?: Date };

/** Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2) through AWS SDK v3. */
export class S3BlobStore implements BlobStore, Closable {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix}/` : '';
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
    });
  }

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<BlobInfo> {
    const Key = this.#toObjectKey(key);
    // Counted before the SDK sees a byte: an oversized body fails the upload at maxBytes + 1.
    const counted = new MeteredStream({ maxBytes: options.maxBytes });
    const feeding = pipeline(body, counted, { signal: options.signal });
    // Upload sends one PutObject for bodies under a part (5 MiB), else a multipart upload that it
    // aborts when reading the body fails, so no partial object or dangling upload is left.
    const upload = new Upload({
      client: this.#client,
      // Memory per upload is about (queueSize + 2) parts of 5 MiB: two in flight keep a gateway
      // with many concurrent uploads affordable while still overlapping network round trips.
      queueSize: 2,
      params: { Bucket: this.#bucket, Key, Body: counted, ContentType: options.contentType },
    });
    let storeFailedFirst = false;
    const uploading = upload.done().catch((error: unknown) => {
      if (!counted.destroyed) {
        storeFailedFirst = true;
        counted.destroy(); // stop reading the caller's body
      }
      throw error;
    });
    // Wait for both: Upload settles only after its AbortMultipartUpload has been sent.
    const [uploaded, fed] = await Promise.allSettled([uploading, feeding]);
    if (fed.status === 'rejected' && !storeFailedFirst) throw fed.reason; // too large, aborted, source error
    if (uploaded.status === 'rejected') throw toBlobStoreError(uploaded.reason);
    const etag = uploaded.value.ETag ?? (await this.head(key))?.etag;
    if (!etag) throw unavailable('blob store', new Error(`no ETag for ${Key}`));
    // S3 answers a PUT without Last-Modified; the upload's end is within a second of it.
    return { sizeBytes: counted.sizeBytes, etag, contentType: options.contentType, lastModified: new Date() };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const Key = this.#toObjectKey(key);
    try {
      return toBlobInfo(await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key })));
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw toBlobStoreError(error);
    }
  }

  /** The range must lie within the object (the gateway checks it against head() first). */
  async get(key: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const Key = this.#toObjectKey(key);
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

  async delete(key: string): Promise<void> {
    const Key = this.#toObjectKey(key);
    // S3 answers 204 for a missing key too.
    await this.#client
      .send(new DeleteObjectCommand({ Bucket: this.#bucket, Key }))
      .catch((error: unknown) => {
        throw toBlobStoreError(error);
      });
  }

  async presignDownload(key: string, options: PresignDownloadOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: this.#toObjectKey(key),
      // Response overrides are part of the signature: the link cannot be re-labelled.
      ResponseContentDisposition: toAttachmentDisposition(options.fileName),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.#client, command, { expiresIn: options.expiresInSeconds });
  }

  async presignUpload(key: string, options: { expiresInSeconds: number; contentType: string }) {
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: this.#toObjectKey(key),
      ContentType: options.contentType,
    });
    // security: Content-Type is a signed header, so the uploader cannot store another type.
    const signableHeaders = new Set(['content-type']);
    return getSignedUrl(this.#client, command, { expiresIn: options.expiresInSeconds, signableHeaders });
  }

  async check(): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
    } catch (error) {
      // Readiness: a missing bucket or refused credentials make the store as unusable as a network failure.
      throw unavailable('blob store', error);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  #toObjectKey(key: string): string {
    assertValidBlobKey(key);
    return `${this.#prefix}${key}`;
  }
}

function toBlobInfo(headers: ObjectHeaders): BlobInfo {
  return {
    sizeBytes: headers.ContentLength ?? 0,
    etag: headers.ETag ?? '',
    contentType: headers.ContentType ?? 'application/octet-stream',
    lastModified: headers.LastModified ?? new Date(0),
  };
}
