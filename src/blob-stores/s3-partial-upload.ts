import type { PartialBlob } from '../domain/resumable/partial-blob-store.ts';
import { toVersionName } from './blob-key.ts';
import type { S3Area } from './s3-listings.ts';

const MiB = 1024 * 1024;
/** S3 takes at most 10,000 parts per multipart upload. */
const MAX_PARTS = 10_000;

/**
 * A resumable upload as S3 holds it: a multipart upload of the version's object whose parts
 * all have one size (the last may be shorter), so the offset alone says which parts are done.
 */
export type S3PartialUpload = {
  area: S3Area;
  /** `<prefix><key>.<version>`: the object the parts become, as S3BlobStore names versions. */
  versionKey: string;
  version: string;
  uploadId: string;
  partSizeBytes: number;
  length: number;
};

/** What begin() hands the upload row to keep: `{"uploadId": "…", "partSize": N}`. */
type StoreState = { uploadId: string; partSize: number };

/** The object key of a version of `key`, beside S3BlobStore's. */
export function toS3VersionKey(area: S3Area, blob: Pick<PartialBlob, 'key' | 'version'>): string {
  return `${area.prefix}${toVersionName(blob.key, blob.version)}`;
}

/** The configured part size, larger (in whole MiB) when `length` would need more than 10,000 parts. */
export function toPartSizeBytes(configuredBytes: number, length: number): number {
  return Math.max(configuredBytes, Math.ceil(length / MAX_PARTS / MiB) * MiB);
}

export function toStoreState(uploadId: string, partSizeBytes: number): string {
  return JSON.stringify({ uploadId, partSize: partSizeBytes } satisfies StoreState);
}

/** The upload a PartialBlob names, read from the state begin() answered. */
export function toS3PartialUpload(area: S3Area, blob: PartialBlob): S3PartialUpload {
  const state = JSON.parse(blob.storeState ?? 'null') as Partial<StoreState> | null;
  if (typeof state?.uploadId !== 'string' || !Number.isSafeInteger(state.partSize) || !state.partSize) {
    throw new TypeError(`not an S3 resumable upload's state: ${blob.storeState}`);
  }
  return {
    area,
    versionKey: toS3VersionKey(area, blob),
    version: blob.version,
    uploadId: state.uploadId,
    partSizeBytes: state.partSize,
    length: blob.length,
  };
}

/** The number of parts of `upload`, each full but the last (none for an empty upload). */
export function toPartCount(upload: S3PartialUpload): number {
  return Math.ceil(upload.length / upload.partSizeBytes);
}

/** The size of part `partNumber` (1-based): the part size, or what is left for the last one. */
export function toPartBytes(upload: S3PartialUpload, partNumber: number): number {
  return Math.max(0, Math.min(upload.partSizeBytes, upload.length - (partNumber - 1) * upload.partSizeBytes));
}
