import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { AppError } from '../../errors/app-error.ts';
import { contentMismatch } from '../../errors/errors.ts';
import type { UploadContract } from './file-record.ts';
import type { HashDigest } from './hash-thread.ts';

/** A limit on an upload's size and the error that refuses the first byte past it. */
export type ByteLimit = { maxBytes: number; error: () => AppError };

/**
 * A pass-through between the client's body and the blob store that holds the upload to its
 * contract while the bytes stream: it counts them, computes their SHA-256 and CRC-32 and fails on the
 * first chunk past a limit (the project's file size, a quota's room) or past the declared
 * length, so an oversized body is never read whole. At the end it compares the length and the
 * digest with the declared ones and fails instead of ending: the store then sees a broken
 * stream and keeps nothing (no version is published, a multipart upload is aborted).
 */
export class ContentCheckStream extends Transform {
  sizeBytes = 0;
  /** The CRC-32 of the bytes that passed (a ZIP entry's, issue 40): zlib's, on this thread (cheap). */
  crc32 = 0;
  readonly #limits: readonly ByteLimit[];
  readonly #declared: UploadContract;
  /** Hashed on a thread of its own (hash-thread.ts): the request thread only copies. */
  readonly #sha256: HashDigest;
  #digest: string | undefined;

  constructor(options: { declared: UploadContract; limits: readonly ByteLimit[]; sha256: HashDigest }) {
    super();
    this.#declared = options.declared;
    this.#limits = options.limits;
    this.#sha256 = options.sha256;
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.sizeBytes += bytes.length;
    const declaredBytes = this.#declared.sizeBytes;
    if (declaredBytes !== null && this.sizeBytes > declaredBytes) {
      callback(contentMismatch(`length: more than the declared ${declaredBytes} bytes`));
      return;
    }
    const exceeded = this.#limits.find((limit) => this.sizeBytes > limit.maxBytes);
    if (exceeded) {
      callback(exceeded.error());
      return;
    }
    this.crc32 = crc32(bytes, this.crc32);
    this.#sha256.update(bytes).then(
      () => callback(null, bytes),
      (error: Error) => callback(error),
    );
  }

  override _flush(callback: TransformCallback): void {
    const declaredBytes = this.#declared.sizeBytes;
    if (declaredBytes !== null && this.sizeBytes !== declaredBytes) {
      callback(contentMismatch(`length: ${this.sizeBytes} bytes, declared ${declaredBytes}`));
      return;
    }
    this.#sha256.digest().then((bytes) => {
      const digest = bytes.toString('base64');
      this.#digest = digest;
      const declaredSha256 = this.#declared.checksumSha256;
      if (declaredSha256 !== null && digest !== declaredSha256) {
        callback(
          contentMismatch(`checksum: the SHA-256 of the body is ${digest}, declared ${declaredSha256}`),
        );
        return;
      }
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A refused or broken upload: its digest will never be asked for.
    if (this.#digest === undefined) this.#sha256.discard();
    callback(error);
  }

  /** base64 of the SHA-256 of everything that passed; only once the stream has ended. */
  get checksumSha256(): string {
    if (this.#digest === undefined) throw new TypeError('the stream has not ended');
    return this.#digest;
  }
}
