import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { PutBlobOptions } from '../domain/blobs/blob-store.ts';
import { MeteredStream } from './metered-stream.ts';
import { toBlobStoreError } from './s3-errors.ts';

/** S3's largest single PutObject: a longer body goes as a multipart upload. */
const MAX_SINGLE_PUT_BYTES = 5 * 1024 ** 3;
/** S3's smallest part (all but the last), lib-storage's default. */
const MIN_PART_BYTES = 5 * 1024 ** 2;
/** S3's most parts in one multipart upload. */
const MAX_PARTS = 10_000;

type ObjectParams = { Bucket: string; Key: string };

/**
 * Writes `body` as the object `Key` (S3BlobStore.put's bytes): the ETag S3 answered (empty from
 * Ceph RGW's multipart completions) and the bytes counted. Nothing is left of a body that fails.
 */
export async function writeS3Object(
  client: S3Client,
  object: ObjectParams,
  body: Readable,
  options: PutBlobOptions,
): Promise<{ etag: string | undefined; sizeBytes: number }> {
  const length = options.sizeBytes;
  // A length said beforehand goes in one PutObject that streams the body as it arrives, as a
  // plain S3 client sends a file: no part is buffered and no multipart upload is left to
  // abort; S3 keeps nothing of a PutObject whose connection is cut before its last byte,
  // which the count holds back until the body has ended well. (An empty body would have
  // none to hold: Upload sends it once it has ended.)
  const whole =
    length !== undefined && length > 0 && length <= Math.min(options.maxBytes, MAX_SINGLE_PUT_BYTES);
  // Counted before the SDK sees a byte: an oversized body fails the upload at maxBytes + 1,
  // and one of another length than announced fails instead of ending.
  const counted = new MeteredStream({ maxBytes: options.maxBytes, ...(whole && { exactBytes: length }) });
  const feeding = pipeline(body, counted, { signal: options.signal });
  const params = { ...object, Body: counted, ContentType: options.contentType };
  const cut = new AbortController();
  const uploading = whole
    ? client.send(new PutObjectCommand({ ...params, ContentLength: length }), {
        abortSignal: cut.signal,
      })
    : uploadInParts(client, params, Math.min(length ?? options.maxBytes, options.maxBytes));
  // A body that fails leaves the PutObject waiting for bytes that will never come: cut its
  // connection. (Upload aborts its multipart upload itself when reading the body fails.)
  feeding.catch(() => cut.abort());
  let storeFailedFirst = false;
  const storing = uploading.catch((error: unknown) => {
    if (!counted.destroyed) {
      storeFailedFirst = true;
      counted.destroy(); // stop reading the caller's body
    }
    throw error;
  });
  // Wait for both: Upload settles only after its AbortMultipartUpload has been sent.
  const [uploaded, fed] = await Promise.allSettled([storing, feeding]);
  if (fed.status === 'rejected' && !storeFailedFirst) {
    // Never stored while the last chunk is held back; if S3 answered all the same, remove it.
    if (uploaded.status === 'fulfilled') await client.send(new DeleteObjectCommand(object)).catch(() => {});
    throw fed.reason; // too large, another length, aborted, source error
  }
  if (uploaded.status === 'rejected') throw toBlobStoreError(uploaded.reason);
  return { etag: uploaded.value.ETag, sizeBytes: counted.sizeBytes };
}

/**
 * A body of unknown length (a multipart form's file part, a chunked PUT), or past a single
 * PutObject's 5 GiB: Upload sends one PutObject for bodies under a part, else a multipart
 * upload that it aborts when reading the body fails, so no partial object or dangling upload
 * is left. Parts are S3's 5 MiB minimum, larger only when `mostBytes` needs more than S3's
 * 10,000 parts.
 */
function uploadInParts(
  client: S3Client,
  params: { Bucket: string; Key: string; Body: Readable; ContentType: string },
  mostBytes: number,
): Promise<{ ETag?: string }> {
  const upload = new Upload({
    client,
    // Memory per upload is about (queueSize + 2) parts: two in flight keep a gateway with many
    // concurrent uploads affordable while still overlapping network round trips.
    queueSize: 2,
    partSize: Math.max(MIN_PART_BYTES, Math.ceil(mostBytes / MAX_PARTS)),
    params,
  });
  return upload.done();
}
