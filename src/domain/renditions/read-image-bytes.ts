import type { Readable } from 'node:stream';
import { internal } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { ImageSource } from './image-renderer.ts';

/** How much of a source is read first for its header: enough for JPEG's EXIF and ICC segments. */
export const headerPrefixBytes = 256 * 1024;

/**
 * Reads `sizeBytes` bytes (the first ones, or all) of a stored version into memory. Renders
 * decode from memory; the caller has bounded sizeBytes (COFFER_RENDITION_MAX_SOURCE_BYTES).
 */
export async function readImageBytes(
  blobs: BlobStore,
  source: StoredImage,
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

/** A stored version to read as an image: its key, version and size. */
export type StoredImage = { key: string; version: string; sizeBytes: number };

/**
 * The first bytes of a stored image, for its header: the local file itself where the store has
 * one (libvips reads only the header from it), else its first 256 KiB (or all of it).
 */
export async function readImageHead(blobs: BlobStore, source: StoredImage): Promise<ImageSource> {
  return (
    (await blobs.localPath?.(source.key, source.version)) ??
    (await readImageBytes(blobs, source, { firstBytes: headerPrefixBytes }))
  );
}

/**
 * The whole of a stored image, given its head from readImageHead(): a local file as it is, bytes
 * already whole as they are, else every byte, read into memory only now, after the caller has
 * checked the header in the head against its limits.
 */
export async function readWholeImage(
  blobs: BlobStore,
  source: StoredImage,
  head: ImageSource,
): Promise<ImageSource> {
  if (typeof head === 'string' || head.length === source.sizeBytes) return head;
  return readImageBytes(blobs, source);
}
