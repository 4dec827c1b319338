import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { contentMismatch } from '../../errors/errors.ts';
import { noteIncomingBytes } from '../blobs/incoming-bytes.ts';
import type { RunningDigest } from './running-digests.ts';

/** tus checksum extension: the algorithms a PATCH may name in Upload-Checksum. */
export const chunkChecksumAlgorithms = ['sha1', 'sha256'] as const;
export type ChunkChecksum = { algorithm: (typeof chunkChecksumAlgorithms)[number]; base64: string };

/** The running SHA-256's saved state at an upload's offset (a save() under way), and the CRC-32 there. */
export type Checkpoint = { offset: number; state: Promise<Uint8Array>; crc32: number | null };

/**
 * Where the running SHA-256's state is saved: every MiB of the upload (absolute offsets), the
 * flush boundary of issue 35. A kill -9 loses at most the bytes since the last one the store
 * made durable, and a resume goes on hashing from there.
 */
export const checkpointEveryBytes = 1024 * 1024;

/**
 * One PATCH's bytes on their way to the partial store: cut off at the first byte past the
 * upload's length, hashed for the chunk's Upload-Checksum (if it has one) and fed to the
 * upload's running SHA-256, whose state is saved at every checkpoint the bytes cross.
 * `sizeBytes` counts what passed.
 */
export class ChunkStream extends Transform {
  sizeBytes = 0;
  /** The bytes the running SHA-256 took (all that passed, once they are through). */
  hashedBytes = 0;
  /** Saved states at the checkpoints crossed, oldest first (checkpoints() takes them). */
  readonly #checkpoints: Checkpoint[] = [];
  readonly #room: number;
  readonly #checksum: Hash | undefined;
  readonly #running: RunningDigest | undefined;
  readonly #onBytes: (() => void) | undefined;

  constructor(options: {
    room: number;
    checksum?: ChunkChecksum;
    running?: RunningDigest;
    /** Told as bytes pass: the writer is alive. */
    onBytes?: () => void;
  }) {
    super();
    this.#room = options.room;
    this.#checksum = options.checksum && createHash(options.checksum.algorithm);
    this.#running = options.running;
    this.#onBytes = options.onBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.sizeBytes += chunk.length;
    noteIncomingBytes(chunk.length);
    this.#onBytes?.();
    if (this.sizeBytes > this.#room) {
      callback(contentMismatch(`length: more bytes than the upload's Upload-Length`));
      return;
    }
    this.#checksum?.update(chunk);
    if (!this.#running) {
      callback(null, chunk);
      return;
    }
    this.#hash(this.#running, chunk).then(
      () => callback(null, chunk),
      (error: Error) => callback(error),
    );
  }

  /** The saved states at offsets from `after` (excluded) to `upTo`, oldest first; dropped from here. */
  takeCheckpoints(after: number, upTo: number): Checkpoint[] {
    const taken: Checkpoint[] = [];
    while (this.#checkpoints[0] && this.#checkpoints[0].offset <= upTo) {
      const checkpoint = this.#checkpoints.shift()!;
      if (checkpoint.offset > after) taken.push(checkpoint);
    }
    return taken;
  }

  /** Feeds the running digest, saving its state where the bytes cross a checkpoint. */
  async #hash(running: RunningDigest, chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length; ) {
      const offset = running.offset + this.hashedBytes;
      const toCheckpoint = checkpointEveryBytes - (offset % checkpointEveryBytes);
      const piece = chunk.subarray(at, at + toCheckpoint);
      if (running.crc32 !== null) running.crc32 = crc32(piece, running.crc32);
      await running.sha256.update(piece);
      at += piece.length;
      this.hashedBytes += piece.length;
      if (piece.length === toCheckpoint) {
        const state = running.sha256.save();
        state.catch(() => {}); // a checkpoint no one takes must not go unheard
        this.#checkpoints.push({ offset: offset + piece.length, state, crc32: running.crc32 });
      }
    }
  }

  /** The base64 digest of the chunk for its Upload-Checksum (once it has ended). */
  checksumBase64(): string | undefined {
    return this.#checksum?.digest('base64');
  }
}
