import { Transform, type TransformCallback } from 'node:stream';
import { fileTooLarge } from '../errors/errors.ts';
import { ParallelMd5 } from './parallel-md5.ts';

/**
 * A pass-through that counts bytes (and optionally hashes them with MD5, on the MD5 thread:
 * parallel-md5.ts) while they stream, failing with FILE_TOO_LARGE on the first chunk past
 * `maxBytes`, so an oversized body is refused without ever being read twice or held whole.
 */
export class MeteredStream extends Transform {
  sizeBytes = 0;
  readonly #maxBytes: number;
  readonly #md5: ParallelMd5 | undefined;

  constructor(options: { maxBytes: number; md5?: boolean }) {
    super();
    this.#maxBytes = options.maxBytes;
    this.#md5 = options.md5 ? new ParallelMd5() : undefined;
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.sizeBytes += bytes.length;
    if (this.sizeBytes > this.#maxBytes) {
      callback(fileTooLarge(this.#maxBytes));
      return;
    }
    if (this.#md5 === undefined || this.#md5.update(bytes)) {
      callback(null, bytes);
      return;
    }
    // The MD5 thread lags: hold this chunk until it catches up (backpressure, not memory).
    this.#md5.drained().then(
      () => callback(null, bytes),
      (error: Error) => callback(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Failed or aborted before toEtag(): the MD5 thread forgets these bytes.
    if (error) this.#md5?.drop();
    callback(error);
  }

  /** The quoted MD5 entity tag of everything that passed (call once, after the end). */
  async toEtag(): Promise<string> {
    if (!this.#md5) throw new TypeError('MeteredStream was created without md5');
    return `"${await this.#md5.digest()}"`;
  }
}
