import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { contentMismatch } from '../../errors/errors.ts';
import { noteIncomingBytes } from '../blobs/incoming-bytes.ts';
import type { RunningDigest } from './running-digests.ts';

/** tus checksum extension: the algorithms a PATCH may name in Upload-Checksum. */
export const chunkChecksumAlgorithms = ['sha1', 'sha256'] as const;
export type ChunkChecksum = { algorithm: (typeof chunkChecksumAlgorithms)[number]; base64: string };

/**
 * One PATCH's bytes on their way to the partial store: cut off at the first byte past the
 * upload's length, hashed for the chunk's Upload-Checksum (if it has one) and fed to the
 * upload's running SHA-256. `sizeBytes` counts what passed.
 */
export class ChunkStream extends Transform {
  sizeBytes = 0;
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
    const running = this.#running;
    if (!running) {
      callback(null, chunk);
      return;
    }
    running.sha256.update(chunk).then(
      () => callback(null, chunk),
      (error: Error) => callback(error),
    );
  }

  /** The base64 digest of the chunk for its Upload-Checksum (once it has ended). */
  checksumBase64(): string | undefined {
    return this.#checksum?.digest('base64');
  }
}
