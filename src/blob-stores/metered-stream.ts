import { Transform, type TransformCallback } from 'node:stream';
import type { HashDigest } from '../domain/files/hash-thread.ts';
import { fileTooLarge } from '../errors/errors.ts';

/**
 * A pass-through that counts bytes (and optionally has them hashed with MD5 on the hashing
 * thread) while they stream, failing with FILE_TOO_LARGE on the first chunk past `maxBytes`,
 * so an oversized body is refused without ever being read twice or held whole. The MD5 is
 * finished before the stream ends: a store that sees the end can ask for the entity tag.
 */
export class MeteredStream extends Transform {
  sizeBytes = 0;
  readonly #maxBytes: number;
  readonly #md5: HashDigest | undefined;
  #etag: string | undefined;

  constructor(options: { maxBytes: number; md5?: HashDigest }) {
    super();
    this.#maxBytes = options.maxBytes;
    this.#md5 = options.md5;
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.sizeBytes += bytes.length;
    if (this.sizeBytes > this.#maxBytes) {
      callback(fileTooLarge(this.#maxBytes));
      return;
    }
    if (!this.#md5) {
      callback(null, bytes);
      return;
    }
    this.#md5.update(bytes).then(
      () => callback(null, bytes),
      (error: Error) => callback(error),
    );
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#md5) {
      callback();
      return;
    }
    this.#md5.digest().then((digest) => {
      this.#etag = `"${digest.toString('hex')}"`;
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A refused or broken stream: its digest will never be asked for.
    if (this.#md5 && this.#etag === undefined) this.#md5.discard();
    callback(error);
  }

  /** The quoted MD5 entity tag of everything that passed (once the stream has ended). */
  toEtag(): string {
    if (this.#etag === undefined) throw new TypeError('MeteredStream has no MD5 (none asked, or not ended)');
    return this.#etag;
  }
}
