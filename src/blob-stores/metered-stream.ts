import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTooLarge } from '../errors/errors.ts';

/**
 * A pass-through that counts bytes (and optionally hashes them with MD5) while they stream,
 * failing with FILE_TOO_LARGE on the first chunk past `maxBytes`, so an oversized body is
 * refused without ever being read twice or held whole.
 */
export class MeteredStream extends Transform {
  sizeBytes = 0;
  readonly #maxBytes: number;
  readonly #md5: Hash | undefined;

  constructor(options: { maxBytes: number; md5?: boolean }) {
    super();
    this.#maxBytes = options.maxBytes;
    this.#md5 = options.md5 ? createHash('md5') : undefined;
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.sizeBytes += bytes.length;
    if (this.sizeBytes > this.#maxBytes) {
      callback(fileTooLarge(this.#maxBytes));
      return;
    }
    this.#md5?.update(bytes);
    callback(null, bytes);
  }

  /** The quoted MD5 entity tag of everything that passed (call once, after the end). */
  toEtag(): string {
    if (!this.#md5) throw new TypeError('MeteredStream was created without md5');
    return `"${this.#md5.digest('hex')}"`;
  }
}
