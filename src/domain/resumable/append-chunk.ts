import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checksumMismatch, uploadLocked } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { HashThread } from '../files/hash-thread.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import { type ChunkChecksum, ChunkStream } from './chunk-stream.ts';
import { type CommitOptions, commitResumable } from './commit-resumable.ts';
import type { LeaseHolders } from './lease-holders.ts';
import { OffsetCheckpoints } from './offset-checkpoints.ts';
import { type ResumableUpload, toPartialBlob } from './resumable-upload.ts';
import { discard, type RunningDigest, type RunningDigests } from './running-digests.ts';

export type AppendOptions = CommitOptions & {
  links: LinkIssuer;
  clock: Clock;
  hashes: HashThread;
  /** Tells a lease whose process died (default: none is ever known dead; leases lapse). */
  leaseHolders?: LeaseHolders;
};

/** One PATCH: its Upload-Offset, its body, and the body's Upload-Checksum if it has one. */
export type Chunk = { offset: number; body: Readable; checksum?: ChunkChecksum };

/** The upload as its writer holds it: read under the lease `owner`. */
export type HeldUpload = { upload: ResumableUpload; file: FileRecord; owner: string };

/**
 * Writes a chunk under the upload's lease and moves the offset to what the store made durable,
 * with the running SHA-256's state and CRC-32 there (as the bytes stream, at each flush boundary, and at
 * the end); commits when that is the whole length. A chunk whose checksum fails moves nothing
 * (460); a body cut off midway moves the offset to what was kept (unless it carried a checksum,
 * which a part cannot match) and then fails as the body did.
 */
export async function appendChunk(
  options: AppendOptions,
  digests: RunningDigests,
  held: HeldUpload,
  chunk: Chunk,
  context: { signal: AbortSignal; expiresAt: Date; touch?: () => void },
): Promise<ResumableUpload> {
  const { upload, owner } = held;
  let running = digests.take(upload);
  let moved = upload;
  if (upload.offset < upload.length) {
    const written = await writeChunk(options, held, chunk, running, context);
    const end = await toKeptEnd(written, running);
    if (end.offset !== written.rowOffset || written.failure === undefined) {
      if (
        !(await options.uploads.advance(upload.id, owner, {
          from: written.rowOffset,
          to: end.offset,
          expiresAt: context.expiresAt,
          sha256State: end.sha256State,
          crc32State: end.crc32State,
        }))
      )
        throw uploadLocked(1); // the lease lapsed and another writer took the upload
    }
    moved = {
      ...upload,
      ...{ offset: end.offset, sha256State: end.sha256State, crc32State: end.crc32State },
      expiresAt: context.expiresAt,
    };
    if (written.failure !== undefined) {
      if (running) discard(running);
      running = undefined;
      // Every byte is kept (the body or the lease failed after the last one): commit anyway.
      if (end.offset < upload.length) throw written.failure;
      // The saved state goes on (the digest that streamed was discarded).
      running = digests.take(moved);
    }
    if (running) running.offset = end.offset;
  }
  if (moved.offset < moved.length) {
    if (running) digests.keep(upload.id, running);
    return moved;
  }
  const etag = await commitResumable(options, moved, toPartialBlob(moved), running);
  return { ...moved, state: 'committed', etag };
}

type Written = {
  /** Where the store's kept bytes end. */
  offset: number;
  failure?: unknown;
  /** Where the row is now (moved mid-PATCH at flush boundaries). */
  rowOffset: number;
  stream: ChunkStream;
};

/**
 * The offset the row moves to at the chunk's end, and the SHA-256 state there: every kept byte
 * when the digest took exactly those (always, unless the body failed), else the last checkpoint
 * within them, else (a chunk cut before its first checkpoint) every kept byte with no state,
 * so the commit reads the bytes back.
 */
async function toKeptEnd(
  written: Written,
  running: RunningDigest | undefined,
): Promise<{ offset: number; sha256State: Uint8Array | null; crc32State: number | null }> {
  const { offset, stream, rowOffset } = written;
  const none = { offset, sha256State: null, crc32State: null };
  if (!running) return none;
  if (running.offset + stream.hashedBytes === offset) {
    const state = await running.sha256.save().catch(() => undefined);
    return state?.length ? { offset, sha256State: state, crc32State: running.crc32 } : none;
  }
  const checkpoint = stream.takeCheckpoints(rowOffset, offset).at(-1);
  const state = checkpoint && (await checkpoint.state.catch(() => undefined));
  if (checkpoint && state?.length)
    return { offset: checkpoint.offset, sha256State: state, crc32State: checkpoint.crc32 };
  return none;
}

/** Streams the chunk into the partial store; the answer is the new durable offset (or a failure). */
async function writeChunk(
  options: AppendOptions,
  { upload, owner }: HeldUpload,
  chunk: Chunk,
  running: RunningDigest | undefined,
  { signal, touch, expiresAt }: { signal: AbortSignal; touch?: () => void; expiresAt: Date },
): Promise<Written> {
  const stream = new ChunkStream({
    room: upload.length - upload.offset,
    ...(touch && { onBytes: touch }),
    ...(chunk.checksum && { checksum: chunk.checksum }),
    ...(running && { running }),
  });
  // A lost lease (another request took over) ends the chunk as a client going away would.
  const stop = () => stream.destroy(signal.reason as Error);
  signal.addEventListener('abort', stop, { once: true });
  // A chunk with a checksum counts whole or not at all: the row moves only at its end.
  const checkpoints = chunk.checksum
    ? undefined
    : new OffsetCheckpoints({
        ...{ uploads: options.uploads, uploadId: upload.id, owner, offset: upload.offset, expiresAt },
        ...{ stream, hashed: running !== undefined, onLost: (error: Error) => stream.destroy(error) },
      });
  // The body's failure reaches the store through the stream; this only keeps it from going unheard.
  pipeline(chunk.body, stream).catch(() => {});
  try {
    const appended = await options.partials.append(toPartialBlob(upload), upload.offset, stream, {
      ...(checkpoints && { onDurable: checkpoints.durable }),
    });
    const rowOffset = (await checkpoints?.settle()) ?? upload.offset;
    if (appended.failure !== undefined) {
      // A part of a chunk cannot match its checksum: none of it counts.
      if (chunk.checksum) return { offset: upload.offset, failure: appended.failure, rowOffset, stream };
      return { ...appended, rowOffset, stream };
    }
    if (chunk.checksum && stream.checksumBase64() !== chunk.checksum.base64)
      return {
        offset: upload.offset,
        failure: checksumMismatch(chunk.checksum.algorithm),
        rowOffset,
        stream,
      };
    return { offset: appended.offset, rowOffset, stream };
  } catch (error) {
    // The store failed: the row keeps whatever the checkpoints moved it to.
    await checkpoints?.settle();
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
