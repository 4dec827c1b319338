import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checksumMismatch, uploadLocked } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { HashThread } from '../files/hash-thread.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import { type ChunkChecksum, ChunkStream } from './chunk-stream.ts';
import { type CommitOptions, commitResumable } from './commit-resumable.ts';
import { type ResumableUpload, toPartialBlob } from './resumable-upload.ts';
import { discard, type RunningDigest, type RunningDigests } from './running-digests.ts';

export type AppendOptions = CommitOptions & { links: LinkIssuer; clock: Clock; hashes: HashThread };

/** One PATCH: its Upload-Offset, its body, and the body's Upload-Checksum if it has one. */
export type Chunk = { offset: number; body: Readable; checksum?: ChunkChecksum };

/** The upload as its writer holds it: read under the lease `owner`. */
export type HeldUpload = { upload: ResumableUpload; file: FileRecord; owner: string };

/**
 * Writes a chunk under the upload's lease and moves the offset to what the store made durable;
 * commits when that is the whole length. A chunk whose checksum fails moves nothing (460); a
 * body cut off midway moves the offset to what was kept (unless it carried a checksum, which
 * a part cannot match) and then fails as the body did.
 */
export async function appendChunk(
  options: AppendOptions,
  digests: RunningDigests,
  held: HeldUpload,
  chunk: Chunk,
  context: { signal: AbortSignal; expiresAt: Date; touch?: () => void },
): Promise<ResumableUpload> {
  const { upload, owner } = held;
  let running: RunningDigest | undefined;
  let moved = upload;
  if (upload.offset < upload.length) {
    running = digests.take(upload.id, upload.offset);
    const written = await writeChunk(options, upload, chunk, running, context);
    if (written.offset !== upload.offset || written.failure === undefined) {
      if (
        !(await options.uploads.advance(upload.id, owner, {
          from: upload.offset,
          to: written.offset,
          expiresAt: context.expiresAt,
        }))
      )
        throw uploadLocked(); // the lease lapsed and another writer took the upload
      moved = { ...upload, offset: written.offset, expiresAt: context.expiresAt };
    }
    if (written.failure !== undefined) {
      if (running) discard(running);
      running = undefined;
      // Every byte is kept (the body or the lease failed after the last one): commit anyway.
      if (written.offset < upload.length) throw written.failure;
    }
    if (running) running.offset = written.offset;
  } else {
    running = digests.take(upload.id, upload.offset);
  }
  if (moved.offset < moved.length) {
    if (running) digests.keep(upload.id, running);
    return moved;
  }
  const etag = await commitResumable(options, moved, toPartialBlob(moved), running);
  return { ...moved, state: 'committed', etag };
}

/** Streams the chunk into the partial store; the answer is the new durable offset (or a failure). */
async function writeChunk(
  options: AppendOptions,
  upload: ResumableUpload,
  chunk: Chunk,
  running: RunningDigest | undefined,
  { signal, touch }: { signal: AbortSignal; touch?: () => void },
): Promise<{ offset: number; failure?: unknown }> {
  const stream = new ChunkStream({
    room: upload.length - upload.offset,
    ...(touch && { onBytes: touch }),
    ...(chunk.checksum && { checksum: chunk.checksum }),
    ...(running && { running }),
  });
  // A lost lease (another request took over) ends the chunk as a client going away would.
  const stop = () => stream.destroy(signal.reason as Error);
  signal.addEventListener('abort', stop, { once: true });
  // The body's failure reaches the store through the stream; this only keeps it from going unheard.
  pipeline(chunk.body, stream).catch(() => {});
  try {
    const appended = await options.partials.append(toPartialBlob(upload), upload.offset, stream);
    if (appended.failure !== undefined) {
      // A part of a chunk cannot match its checksum: none of it counts.
      return chunk.checksum ? { offset: upload.offset, failure: appended.failure } : appended;
    }
    if (chunk.checksum && stream.checksumBase64() !== chunk.checksum.base64)
      return { offset: upload.offset, failure: checksumMismatch(chunk.checksum.algorithm) };
    return { offset: appended.offset };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
