import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { isS3NotFound, toBlobStoreError } from './s3-errors.ts';
import type { S3PartialUpload } from './s3-partial-upload.ts';

/*
 * A part that is not full yet cannot be uploaded (S3 refuses parts under 5 MiB but the last),
 * so its bytes are parked in an object of their own, `<versionKey>.tail-<n>` (n: the part's
 * number), which the next append reads back in front of its body. Keyed by part number: a
 * crash after tail-(n+1) was written must not damage tail-n, which the row's offset may
 * still point into. The name never parses as a stored blob name, so `coffer gc` ignores it.
 */

function toTailKey(upload: S3PartialUpload, partNumber: number): string {
  return `${upload.versionKey}.tail-${partNumber}`;
}

/**
 * Fills `into` with the first `into.length` parked bytes of part `partNumber`. Only that prefix
 * counts: a later, longer tail of the same part holds bytes past the row's offset.
 */
export async function readParkedBytes(
  upload: S3PartialUpload,
  partNumber: number,
  into: Buffer,
): Promise<void> {
  const { client, bucket } = upload.area;
  const Key = toTailKey(upload, partNumber);
  let filled = 0;
  try {
    const output = await client.send(
      new GetObjectCommand({ Bucket: bucket, Key, Range: `bytes=0-${into.length - 1}` }),
    );
    for await (const chunk of output.Body as Readable) {
      filled += (chunk as Buffer).copy(into, filled);
      if (filled === into.length) break;
    }
  } catch (error) {
    if (!isS3NotFound(error)) throw toBlobStoreError(error);
  }
  // The row's offset says these bytes were kept: a store that lost them cannot go on.
  if (filled < into.length) throw new Error(`${Key} holds ${filled} of the ${into.length} bytes it kept`);
}

/** Keeps `bytes`, the start of part `partNumber`, until the part is full. */
export async function parkBytes(upload: S3PartialUpload, partNumber: number, bytes: Buffer): Promise<void> {
  const { client, bucket } = upload.area;
  const Key = toTailKey(upload, partNumber);
  await client
    .send(new PutObjectCommand({ Bucket: bucket, Key, Body: bytes, ContentLength: bytes.length }))
    .catch((error: unknown) => {
      throw toBlobStoreError(error);
    });
}

/** Removes every parked tail of the upload (none left is fine). */
export async function deleteParkedBytes(upload: S3PartialUpload): Promise<void> {
  const { client, bucket } = upload.area;
  const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: `${upload.versionKey}.tail-` });
  try {
    for await (const page of pages) {
      await Promise.all(
        (page.Contents ?? []).map(({ Key }) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))),
      );
    }
  } catch (error) {
    throw toBlobStoreError(error);
  }
}
