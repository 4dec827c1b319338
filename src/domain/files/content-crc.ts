import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { internal } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';

/**
 * The CRC-32 (uint32, as ZIP's) of a stored version, read back whole a chunk at a time (memory
 * bounded whatever its size): for bytes whose CRC was not recorded as they were written
 * (FileRecord.contentCrc32 null: direct S3 uploads, files from before migration 0036). The
 * caller saves it for that exact version (FileRepository.saveContentCrc32), computed once.
 */
export async function computeStoredCrc32(
  blobs: BlobStore,
  storageKey: string,
  blobVersion: string,
  signal?: AbortSignal,
): Promise<number> {
  const opened = await blobs.get(storageKey, blobVersion, signal ? { signal } : undefined);
  if (!opened) throw internal(new Error(`the version ${storageKey}.${blobVersion} cannot be read`));
  if (Buffer.isBuffer(opened.body)) return crc32(opened.body);
  return crc32Of(opened.body, signal);
}

/** The CRC-32 of everything a stream yields (leaving the loop early destroys it). */
export async function crc32Of(body: Readable, signal?: AbortSignal): Promise<number> {
  let running = 0;
  for await (const chunk of body) {
    signal?.throwIfAborted();
    running = crc32(chunk as Buffer, running);
  }
  return running;
}
