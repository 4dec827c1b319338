import { Transform, type TransformCallback } from 'node:stream';
import { noteIncomingBytes } from '../domain/blobs/incoming-bytes.ts';
import type { HashDigest } from '../domain/files/hash-thread.ts';
import { fileTooLarge } from '../errors/errors.ts';

/**
 * A pass-through that counts bytes (and, when given a digest, has them hashed with SHA-256 on
 * the hashing thread) while they stream, failing with FILE_TOO_LARGE on the first chunk past
 * `maxBytes`, so an oversized body is refused without ever being read twice or held whole. The
 * digest is finished before the stream ends: a store that sees the end can ask for it.
 */
export class MeteredStream extends Transform {
  sizeBytes = 0;
  readonly #maxBytes: number;
  readonly #sha256: HashDigest | undefined;
  #digest: Buffer | undefined;

  constructor(options: { maxBytes: number; sha256?: HashDigest }) {
    super();
    this.#maxBytes = options.maxBytes;
    this.#sha256 = options.sha256;
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.sizeBytes += bytes.length;
    noteIncomingBytes(bytes.length);
    if (this.sizeBytes > this.#maxBytes) {
      callback(fileTooLarge(this.#maxBytes));
      return;
    }
    if (!this.#sha256) {
      callback(null, bytes);
      return;
    }
    this.#sha256.update(bytes).then(
      () => callback(null, bytes),
      (error: Error) => callback(error),
    );
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#sha256) {
      callback();
      return;
    }
    this.#sha256.digest().then((digest) => {
      this.#digest = digest;
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A refused or broken stream: its digest will never be asked for.
    if (this.#sha256 && this.#digest === undefined) this.#sha256.discard();
    callback(error);
  }

  /** The SHA-256 of everything that passed (once the stream has ended). */
  get sha256(): Buffer {
    if (this.#digest === undefined)
      throw new TypeError('MeteredStream has no SHA-256 (none asked, or not ended)');
    return this.#digest;
  }
}
