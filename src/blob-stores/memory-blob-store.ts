import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  BlobInfo,
  BlobStore,
  ByteRange,
  PutBlobOptions,
  StoredBlob,
} from '../domain/blobs/blob-store.ts';
import type { BlobSweeper, StoredObject, UnfinishedWrite } from '../domain/blobs/blob-sweeper.ts';
import { etagFromSha256 } from '../domain/blobs/content-etag.ts';
import { HashThread } from '../domain/files/hash-thread.ts';
import { assertValidBlobVersion, newBlobVersion, toStoredName } from './blob-key.ts';
import { MeteredStream } from './metered-stream.ts';

type MemoryBlob = { info: BlobInfo; bytes: Buffer };

/** One hashing thread for every memory store of the process (tests make many stores). */
const hashes = new HashThread();

/** Blobs in process memory, for tests and benchmarks; same semantics as the durable stores. */
export class MemoryBlobStore implements BlobStore, BlobSweeper {
  readonly #blobs = new Map<string, MemoryBlob>();

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob> {
    const version = newBlobVersion();
    assertValidBlobVersion(key, version);
    // Tagged as the disk store tags versions: with the caller's SHA-256, or one computed here.
    const sha256 = options.sha256 ? undefined : hashes.open();
    const meter = new MeteredStream({ maxBytes: options.maxBytes, sha256 });
    const chunks: Buffer[] = [];
    const collect = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    await pipeline(body, meter, collect, { signal: options.signal });
    const etag = etagFromSha256(options.sha256?.() ?? meter.sha256);
    // Only a complete body becomes a version: a failure above leaves nothing.
    const info: BlobInfo = { sizeBytes: meter.sizeBytes, lastModified: new Date() };
    this.#blobs.set(toEntryKey(key, version), { info, bytes: Buffer.concat(chunks, meter.sizeBytes) });
    return { ...info, version, etag };
  }

  async head(key: string, version: string): Promise<BlobInfo | undefined> {
    const blob = this.#blobs.get(toEntryKey(key, version));
    return blob && { ...blob.info };
  }

  async get(key: string, version: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blob = this.#blobs.get(toEntryKey(key, version));
    if (!blob) return undefined;
    const { range } = options;
    const bytes = range ? blob.bytes.subarray(range.start, range.end + 1) : blob.bytes;
    const body = Readable.from([bytes], { objectMode: false, signal: options.signal });
    return { info: { ...blob.info }, body };
  }

  async delete(key: string, version: string): Promise<void> {
    this.#blobs.delete(toEntryKey(key, version));
  }

  async check(): Promise<void> {}

  async *listObjects(options: { pageSize: number }): AsyncGenerator<StoredObject[]> {
    let page: StoredObject[] = [];
    for (const [entryKey, blob] of this.#blobs) {
      const stored = toStoredName(entryKey);
      if (!stored) continue;
      page.push({ ...stored, ...blob.info });
      if (page.length >= options.pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }

  /** Direct uploads go to S3 only: there is no staging object here. */
  async deleteStaging(): Promise<void> {}

  /** A write here is one Map.set: nothing is ever left unfinished. */
  async *listUnfinishedWrites(): AsyncGenerator<UnfinishedWrite[]> {}

  async removeUnfinishedWrite(): Promise<void> {}
}

function toEntryKey(key: string, version: string): string {
  assertValidBlobVersion(key, version);
  return `${key}.${version}`;
}
