import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  HeadObjectCommand,
  ListPartsCommand,
  type Part,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { StoredBlob } from '../domain/blobs/blob-store.ts';
import { isS3NotFound, toBlobStoreError } from './s3-errors.ts';
import { type S3PartialUpload, toPartBytes, toPartCount } from './s3-partial-upload.ts';

/**
 * Publishes the upload's parts as its version (PartialBlobStore.complete). Idempotent: once the
 * multipart upload is gone (NoSuchUpload), a version object of the whole length is the answer,
 * so a call repeated after a crash or a lost answer answers the same.
 */
export async function completeParts(upload: S3PartialUpload, contentType: string): Promise<StoredBlob> {
  if (upload.length === 0) return publishEmpty(upload, contentType);
  const parts = await listParts(upload);
  if (!parts) return findPublished(upload);
  const { area, versionKey, uploadId } = upload;
  try {
    await area.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: area.bucket,
        Key: versionKey,
        UploadId: uploadId,
        MultipartUpload: { Parts: toCompletedParts(upload, parts) },
      }),
    );
  } catch (error) {
    if (!isS3NotFound(error)) throw toBlobStoreError(error);
    // Completed meanwhile: a call whose answer was lost.
  }
  // From the object, not the answer: Ceph RGW completes with an empty <ETag/>, and a repeated
  // call can only ask the object, so both answer the same ETag and Last-Modified.
  return findPublished(upload);
}

/** Aborts the multipart upload; one already gone (completed or aborted) is fine. */
export async function abortParts(upload: S3PartialUpload): Promise<void> {
  const { area, versionKey, uploadId } = upload;
  try {
    await area.client.send(
      new AbortMultipartUploadCommand({ Bucket: area.bucket, Key: versionKey, UploadId: uploadId }),
    );
  } catch (error) {
    if (!isS3NotFound(error)) throw toBlobStoreError(error);
  }
}

/** The parts S3 holds, every page of them; undefined once the multipart upload is gone. */
async function listParts(upload: S3PartialUpload): Promise<Part[] | undefined> {
  const { area, versionKey, uploadId } = upload;
  const parts: Part[] = [];
  // Not paginateListParts: it pages on while NextPartNumberMarker is set, which Ceph RGW sets
  // on the last page too (an endless loop); IsTruncated says whether more follow.
  for (let PartNumberMarker: string | undefined; ; ) {
    const command = new ListPartsCommand({
      Bucket: area.bucket,
      Key: versionKey,
      UploadId: uploadId,
      PartNumberMarker,
    });
    try {
      const page = await area.client.send(command);
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated) return parts;
      PartNumberMarker = page.NextPartNumberMarker;
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw toBlobStoreError(error);
    }
  }
}

/** Parts 1…N with their ETags, each of its fixed size; a part missing or of another size fails. */
function toCompletedParts(upload: S3PartialUpload, parts: Part[]): CompletedPart[] {
  const byNumber = new Map(parts.map((part) => [part.PartNumber, part]));
  const completed: CompletedPart[] = [];
  for (let partNumber = 1; partNumber <= toPartCount(upload); partNumber++) {
    const part = byNumber.get(partNumber);
    const expectedBytes = toPartBytes(upload, partNumber);
    if (!part?.ETag || part.Size !== expectedBytes) {
      throw new Error(
        `part ${partNumber} of ${upload.versionKey} holds ${part?.Size ?? 'no'} bytes, not ${expectedBytes}`,
      );
    }
    completed.push({ PartNumber: partNumber, ETag: part.ETag });
  }
  return completed;
}

/** An empty upload has no part to complete with: its version is an empty object. */
async function publishEmpty(upload: S3PartialUpload, contentType: string): Promise<StoredBlob> {
  const published = await headVersion(upload);
  if (published) return published;
  await abortParts(upload);
  const { area, versionKey } = upload;
  await area.client
    .send(
      new PutObjectCommand({
        Bucket: area.bucket,
        Key: versionKey,
        Body: Buffer.alloc(0),
        ContentLength: 0,
        ContentType: contentType,
      }),
    )
    .catch((error: unknown) => {
      throw toBlobStoreError(error);
    });
  return findPublished(upload);
}

/** The published version; an error if there is none of the whole length (nothing to answer). */
async function findPublished(upload: S3PartialUpload): Promise<StoredBlob> {
  const published = await headVersion(upload);
  if (!published)
    throw new Error(`the upload of ${upload.versionKey} is gone and its version was never published`);
  return published;
}

async function headVersion(upload: S3PartialUpload): Promise<StoredBlob | undefined> {
  const { area, versionKey } = upload;
  try {
    const head = await area.client.send(new HeadObjectCommand({ Bucket: area.bucket, Key: versionKey }));
    if (head.ContentLength !== upload.length || !head.ETag) return undefined;
    const lastModified = head.LastModified ?? new Date();
    return { version: upload.version, sizeBytes: upload.length, etag: head.ETag, lastModified };
  } catch (error) {
    if (isS3NotFound(error)) return undefined;
    throw toBlobStoreError(error);
  }
}
