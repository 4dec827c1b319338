import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { MediaFile } from '../domain/renditions/media-decoder.ts';
import { internal } from '../errors/errors.ts';

/** A stored version to hand to a tool. */
export type StoredMedia = { key: string; version: string; sizeBytes: number };

let copySerial = 0;

/**
 * A local file a tool may read: the store's own file where it has one (the disk store; release()
 * does nothing), else a sparse private copy (0600, in `dir`) of the version's first and last
 * `windowBytes`, its full length set by truncate. A tool then finds the header, the index (an
 * MP4's `moov` is often at the end) and the first seconds, and a probe from S3 reads at most
 * 2 × windowBytes. A version that fits in twice the window is copied whole.
 */
export async function openMediaFile(
  blobs: BlobStore,
  media: StoredMedia,
  options: { windowBytes: number; dir: string; signal?: AbortSignal },
): Promise<MediaFile> {
  const localPath = await blobs.localPath?.(media.key, media.version);
  if (localPath) return { path: localPath, release: async () => {} };
  if (blobs.localPath) throw missingVersion(media);
  const file = path.join(options.dir, `source-${process.pid}-${++copySerial}`);
  const release = () => rm(file, { force: true });
  const handle = await open(file, 'wx', 0o600);
  try {
    for (const range of toWindows(media.sizeBytes, options.windowBytes))
      await copyRange(blobs, media, { handle, ...range, signal: options.signal });
    await handle.truncate(media.sizeBytes);
  } catch (error) {
    await handle.close();
    await release();
    throw error;
  }
  await handle.close();
  return { path: file, release };
}

/** The byte ranges to copy: the whole version, or its head and its tail. */
export function toWindows(sizeBytes: number, windowBytes: number): { start: number; end: number }[] {
  if (sizeBytes === 0) return [];
  if (sizeBytes <= 2 * windowBytes) return [{ start: 0, end: sizeBytes - 1 }];
  return [
    { start: 0, end: windowBytes - 1 },
    { start: sizeBytes - windowBytes, end: sizeBytes - 1 },
  ];
}

async function copyRange(
  blobs: BlobStore,
  media: StoredMedia,
  copy: { handle: Awaited<ReturnType<typeof open>>; start: number; end: number; signal?: AbortSignal },
): Promise<void> {
  const opened = await blobs.get(media.key, media.version, {
    range: { start: copy.start, end: copy.end },
    signal: copy.signal,
  });
  if (!opened) throw missingVersion(media);
  const length = copy.end - copy.start + 1;
  const chunks = Buffer.isBuffer(opened.body) ? [opened.body] : (opened.body as Readable);
  let position = copy.start;
  for await (const chunk of chunks) {
    const bytes = chunk as Buffer;
    if (position + bytes.length > copy.end + 1) {
      if (!Buffer.isBuffer(opened.body)) opened.body.destroy();
      throw internal(new Error(`the store sent more than the ${length} bytes asked for`));
    }
    await copy.handle.write(bytes, 0, bytes.length, position);
    position += bytes.length;
  }
  if (position !== copy.end + 1)
    throw internal(new Error(`the store sent ${position - copy.start} of ${length} bytes`));
}

/** The record names this immutable version: only a store that lost it answers nothing. */
function missingVersion(media: StoredMedia) {
  return internal(new Error(`the source ${media.key}.${media.version} cannot be read`));
}
