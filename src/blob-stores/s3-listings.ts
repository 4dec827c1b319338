import { ListMultipartUploadsCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import type { StoredObject, UnfinishedWrite } from '../domain/blobs/blob-sweeper.ts';
import { toStoredName } from './blob-key.ts';
import { toBlobStoreError } from './s3-errors.ts';

/** Where an S3BlobStore's objects live: its bucket, and its key prefix ('' or ending in '/'). */
export type S3Area = { client: S3Client; bucket: string; prefix: string };

/** The key and version an object key stands for: only what the store wrote, under its prefix. */
export function toS3StoredName(area: S3Area, objectKey: string) {
  return objectKey.startsWith(area.prefix) ? toStoredName(objectKey.slice(area.prefix.length)) : undefined;
}

/** Versions and staging objects, a ListObjectsV2 page at a time. */
export async function* listS3Objects(
  area: S3Area,
  options: { pageSize: number; signal?: AbortSignal },
): AsyncGenerator<StoredObject[]> {
  const pages = paginateListObjectsV2(
    { client: area.client, pageSize: options.pageSize },
    { Bucket: area.bucket, Prefix: area.prefix },
  );
  try {
    for await (const output of pages) {
      options.signal?.throwIfAborted();
      const page: StoredObject[] = [];
      for (const object of output.Contents ?? []) {
        const stored = object.Key && toS3StoredName(area, object.Key);
        if (!stored) continue;
        const sizeBytes = object.Size ?? 0;
        page.push({ ...stored, sizeBytes, lastModified: object.LastModified ?? new Date(0) });
      }
      if (page.length > 0) yield page;
    }
  } catch (error) {
    throw toBlobStoreError(error);
  }
}

/** Multipart uploads of the store's keys started before `startedBefore`, a page at a time. */
export async function* listS3MultipartUploads(
  area: S3Area,
  options: { startedBefore: Date; pageSize: number; signal?: AbortSignal },
): AsyncGenerator<UnfinishedWrite[]> {
  let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
  for (;;) {
    options.signal?.throwIfAborted();
    const command = new ListMultipartUploadsCommand({
      Bucket: area.bucket,
      Prefix: area.prefix,
      MaxUploads: options.pageSize,
      ...markers,
    });
    const output = await area.client.send(command).catch((error: unknown) => {
      throw toBlobStoreError(error);
    });
    const page: UnfinishedWrite[] = [];
    for (const { Key, UploadId, Initiated } of output.Uploads ?? []) {
      // An upload started after the cut-off may still be running.
      const stored = Key && toS3StoredName(area, Key);
      if (!Key || !UploadId || !stored) continue;
      if (!Initiated || Initiated >= options.startedBefore) continue;
      page.push({
        kind: 'multipart-upload',
        objectKey: Key,
        uploadId: UploadId,
        startedAt: Initiated,
        ...stored,
      });
    }
    if (page.length > 0) yield page;
    if (!output.IsTruncated) return;
    markers = { KeyMarker: output.NextKeyMarker, UploadIdMarker: output.NextUploadIdMarker };
  }
}
