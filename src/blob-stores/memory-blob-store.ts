import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobStore, ByteRange, PutBlobOptions } from '../domain/ports.ts';
import { assertValidBlobKey } from './blob-key.ts';
import { MeteredStream } from './metered-stream.ts';

type StoredBlob = { info: BlobInfo; bytes: Buffer };

/** Blobs in process memory, for tests and benchmarks; same semantics as the durable stores. */
export class MemoryBlobStore implements BlobStore {
  readonly #blobs = new Map<string, StoredBlob>();

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<BlobInfo> {
    assertValidBlobKey(key);
    const meter = new MeteredStream({ maxBytes: options.maxBytes, md5: true });
    const chunks: Buffer[] = [];
    const collect = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    await pipeline(body, meter, collect, { signal: options.signal });
    // Only a complete body replaces the previous object: a failure above leaves it as it was.
    const info: BlobInfo = {
      sizeBytes: meter.sizeBytes,
      etag: meter.toEtag(),
      contentType: options.contentType,
      lastModified: new Date(),
    };
    this.#blobs.set(key, { info, bytes: Buffer.concat(chunks, meter.sizeBytes) });
    return { ...info };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    assertValidBlobKey(key);
    const blob = this.#blobs.get(key);
    return blob && { ...blob.info };
  }

  async get(key: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    assertValidBlobKey(key);
    const blob = this.#blobs.get(key);
    if (!blob) return undefined;
    const { range } = options;
    const bytes = range ? blob.bytes.subarray(range.start, range.end + 1) : blob.bytes;
    const body = Readable.from([bytes], { objectMode: false, signal: options.signal });
    return { info: { ...blob.info }, body };
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    this.#blobs.delete(key);
  }

  async check(): Promise<void> {}
}
