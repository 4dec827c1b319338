import type { Readable } from 'node:stream';
import { internal } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';

/** How much of a source is read first for its header: enough for JPEG's EXIF and ICC segments. */
export const headerPrefixBytes = 256 * 1024;

/**
 * Reads `sizeBytes` bytes (the first ones, or all) of a stored version into memory. Renders
 * decode from memory; the caller has bounded sizeBytes (COFFER_RENDITION_MAX_SOURCE_BYTES).
 */
export async function readImageBytes(
  blobs: BlobStore,
  source: { key: string; version: string; sizeBytes: number },
  options: { firstBytes?: number; signal?: AbortSignal } = {},
): Promise<Buffer> {
  const length = Math.min(options.firstBytes ?? source.sizeBytes, source.sizeBytes);
  if (length === 0) return Buffer.alloc(0);
  const opened = await blobs.get(source.key, source.version, {
    range: { start: 0, end: length - 1 },
    signal: options.signal,
  });
  // The record names this immutable version: only a store that lost it answers nothing.
  if (!opened) throw internal(new Error(`the source ${source.key}.${source.version} cannot be read`));
  if (Buffer.isBuffer(opened.body)) return opened.body;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of opened.body as Readable) {
    received += (chunk as Buffer).length;
    if (received > length) {
      opened.body.destroy();
      throw internal(new Error(`the store sent more than the ${length} bytes asked for`));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, received);
}
