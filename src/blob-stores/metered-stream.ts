import { Transform, type TransformCallback } from 'node:stream';
import { noteIncomingBytes } from '../domain/blobs/incoming-bytes.ts';
import type { HashDigest } from '../domain/files/hash-thread.ts';
import { contentMismatch, fileTooLarge } from '../errors/errors.ts';

/**
 * A pass-through that counts bytes (and, when given a digest, has them hashed with SHA-256 on
 * the hashing thread) while they stream, failing with FILE_TOO_LARGE on the first chunk past
 * `maxBytes`, so an oversized body is refused without ever being read twice or held whole. The
 * digest is finished before the stream ends: a store that sees the end can ask for it. Given
 * `exactBytes` (a length announced to the store beforehand), it fails instead of ending, or on
 * the first byte too many, when the body has another length; and it holds the chunk that
 * completes the length back until its source has ended well, so a store that knows the length
 * never has the whole body (and publishes nothing) if a check before it fails at the end.
 */
export class MeteredStream extends Transform {
  sizeBytes = 0;
  readonly #maxBytes: number;
  readonly #exactBytes: number | undefined;
  readonly #sha256: HashDigest | undefined;
  #digest: Buffer | undefined;
  /** The chunk that completed exactBytes, passed on only at the end. */
  #last: Buffer | undefined;

  constructor(options: { maxBytes: number; exactBytes?: number; sha256?: HashDigest }) {
    super();
    this.#maxBytes = options.maxBytes;
    this.#exactBytes = options.exactBytes;
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
    if (this.#exactBytes !== undefined && this.sizeBytes > this.#exactBytes) {
      callback(contentMismatch(`length: more than the announced ${this.#exactBytes} bytes`));
      return;
    }
    if (!this.#sha256) {
      this.#pass(bytes, callback);
      return;
    }
    this.#sha256.update(bytes).then(
      () => this.#pass(bytes, callback),
      (error: Error) => callback(error),
    );
  }

  #pass(bytes: Buffer, callback: TransformCallback): void {
    if (bytes.length > 0 && this.sizeBytes === this.#exactBytes) {
      this.#last = bytes;
      callback();
      return;
    }
    callback(null, bytes);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#exactBytes !== undefined && this.sizeBytes !== this.#exactBytes) {
      callback(contentMismatch(`length: ${this.sizeBytes} bytes, announced ${this.#exactBytes}`));
      return;
    }
    if (this.#last) this.push(this.#last);
    this.#last = undefined;
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
