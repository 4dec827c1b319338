import { constants } from 'node:fs';
import { access, type FileHandle, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
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
import { storageFull, unavailable } from '../errors/errors.ts';
import { listAbandonedTempFiles, syncDirectory, toTempPath } from './atomic-files.ts';
import { newBlobVersion, toVersionName } from './blob-key.ts';
import { FileRangeBody } from './file-range-body.ts';
import { toFileWriter } from './file-writer.ts';
import { isNoSpaceError, toFsStoreError } from './fs-errors.ts';
import { listVersionFiles } from './list-version-files.ts';
import { MeteredStream } from './metered-stream.ts';
import { createSmallBlobCache, SMALL_BLOB_BYTES } from './small-blob-cache.ts';

export type FsBlobStoreOptions = {
  rootDir: string;
  /** Where the ETag's SHA-256 is computed, off the request thread, when put()'s caller has none. */
  hashes?: HashThread;
};

/** Backstop for temp files whose writer cannot be asked: untouched this long, nobody writes them. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** The readiness probe: one page, so that a disk that cannot take one more page fails it. */
const PROBE_BYTES = Buffer.alloc(4096);

/*
 * Layout: version `v` of key `p/f` is the file `p/f.v.blob` (key segments have no '.', so
 * names never clash). A version is written once and never changed: put() streams into .tmp/,
 * fsyncs, renames the file into place and fsyncs its directory, so a version that put()
 * answered survives a crash, and a crash before that leaves only a temp file. Which version a
 * file serves is the file record's business (the record is the commit point), so the store
 * keeps no pointer of its own and needs no lock.
 */

/** Blobs in a local directory, written atomically and durably (fsync before every publish). */
export class FsBlobStore implements BlobStore, BlobSweeper {
  readonly #rootDir: string;
  readonly #tmpDir: string;
  #prepared: Promise<void> | undefined;
  #probing: Promise<void> | undefined;
  /** Small versions once read (small-blob-cache.ts): a small download then waits for no disk. */
  readonly #small = createSmallBlobCache();

  readonly #hashes: HashThread;

  constructor(options: FsBlobStoreOptions) {
    this.#rootDir = options.rootDir;
    this.#hashes = options.hashes ?? new HashThread();
    this.#tmpDir = join(options.rootDir, '.tmp');
  }

  /** The store's root (resumable uploads' partial store publishes versions into it). */
  get rootDir(): string {
    return this.#rootDir;
  }

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob> {
    const version = newBlobVersion();
    const blobPath = this.#blobPath(key, version);
    await this.#prepare();
    const tmpPath = toTempPath(this.#tmpDir);
    let handle: FileHandle | undefined;
    let renamed = false;
    try {
      // Created before streaming so the cleanup below always finds it, even when aborted at once.
      handle = await open(tmpPath, 'wx');
      // An upload hands over the SHA-256 its check computes anyway: each byte is hashed once.
      const sha256 = options.sha256 ? undefined : this.#hashes.open();
      const meter = new MeteredStream({ maxBytes: options.maxBytes, sha256 });
      await pipeline(body, meter, toFileWriter(handle), { signal: options.signal });
      const etag = etagFromSha256(options.sha256?.() ?? meter.sha256);
      // Durable before the rename makes it a version: fsync is where a disk that took the
      // writes into its cache says it could not keep them (ENOSPC on a thin disk, EIO).
      await handle.sync();
      const { mtime } = await handle.stat();
      await handle.close();
      handle = undefined;
      await mkdir(dirname(blobPath), { recursive: true });
      await rename(tmpPath, blobPath);
      renamed = true;
      await syncDirectory(dirname(blobPath));
      return { version, sizeBytes: meter.sizeBytes, etag, lastModified: mtime };
    } catch (error) {
      // Nothing partial is kept, whatever failed (a full disk included).
      await handle?.close().catch(() => {});
      await rm(tmpPath, { force: true });
      // A version whose directory entry could not be made durable is not answered, so no
      // record will ever name it: it goes too (it would be a stray for coffer gc otherwise).
      if (renamed) await rm(blobPath, { force: true }).catch(() => {});
      throw toFsStoreError(error);
    }
  }

  async head(key: string, version: string): Promise<BlobInfo | undefined> {
    const stats = await stat(this.#blobPath(key, version)).catch(undefinedIfMissing);
    return stats && { sizeBytes: stats.size, lastModified: stats.mtime };
  }

  async get(key: string, version: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blobPath = this.#blobPath(key, version);
    const small = this.#small.get(blobPath);
    if (small) return { info: small.info, body: toRangeBytes(small.bytes, options.range) };
    const handle = await open(blobPath, 'r').catch(undefinedIfMissing);
    if (!handle) return undefined;
    let info: BlobInfo;
    try {
      const stats = await handle.stat();
      info = { sizeBytes: stats.size, lastModified: stats.mtime };
      if (info.sizeBytes <= SMALL_BLOB_BYTES) {
        const bytes = await readWhole(handle, info.sizeBytes);
        await handle.close();
        this.#small.set(blobPath, { info, bytes });
        return { info, body: toRangeBytes(bytes, options.range) };
      }
    } catch (error) {
      await handle.close().catch(() => {});
      throw toFsStoreError(error);
    }
    // The body owns the handle from here, and closes it once it ends or is destroyed.
    const range = options.range ?? { start: 0, end: info.sizeBytes - 1 };
    return { info, body: new FileRangeBody(handle, range, options.signal) };
  }

  async localPath(key: string, version: string): Promise<string | undefined> {
    const blobPath = this.#blobPath(key, version);
    return (await stat(blobPath).catch(undefinedIfMissing)) ? blobPath : undefined;
  }

  async delete(key: string, version: string): Promise<void> {
    const blobPath = this.#blobPath(key, version);
    this.#small.delete(blobPath);
    await rm(blobPath, { force: true });
  }

  async check(): Promise<void> {
    try {
      await this.#prepare();
      await access(this.#rootDir, constants.W_OK);
      // Concurrent readiness checks share one probe.
      this.#probing ??= this.#probeWrite().finally(() => {
        this.#probing = undefined;
      });
      await this.#probing;
    } catch (error) {
      if (isNoSpaceError(error)) throw storageFull('blob store', error);
      throw unavailable('blob store', error);
    }
  }

  async *listObjects(options: { pageSize: number; signal?: AbortSignal }): AsyncGenerator<StoredObject[]> {
    yield* listVersionFiles(this.#rootDir, options);
  }

  /** Direct uploads go to S3 only: there is no staging object on disk. */
  async deleteStaging(): Promise<void> {}

  async *listUnfinishedWrites(options: { pageSize: number }): AsyncGenerator<UnfinishedWrite[]> {
    // Not #prepare(): its sweep would remove what a dry run only reports.
    if (!(await stat(this.#tmpDir).catch(() => undefined))?.isDirectory()) return;
    const staleBefore = new Date(Date.now() - STALE_TEMP_MS);
    for await (const page of listAbandonedTempFiles(this.#tmpDir, {
      staleBefore,
      pageSize: options.pageSize,
    })) {
      yield page.map((file) => ({
        kind: 'temp-file' as const,
        name: file.name,
        sizeBytes: file.sizeBytes,
        startedAt: file.lastModified,
      }));
    }
  }

  async removeUnfinishedWrite(write: UnfinishedWrite): Promise<void> {
    // Only names listUnfinishedWrites gave out: plain names inside .tmp, nothing else.
    if (write.kind !== 'temp-file' || write.name.includes('/') || write.name.startsWith('.')) return;
    await rm(join(this.#tmpDir, write.name), { force: true });
  }

  /** Writes and removes one small file: fails with ENOSPC/EDQUOT while the disk is full. */
  async #probeWrite(): Promise<void> {
    const probe = toTempPath(this.#tmpDir);
    try {
      await writeFile(probe, PROBE_BYTES, { flag: 'wx', flush: true });
    } finally {
      await rm(probe, { force: true });
    }
  }

  /** Creates the directories once and sweeps the temp files of writers that are gone (crashes). */
  #prepare(): Promise<void> {
    this.#prepared ??= (async () => {
      await mkdir(this.#tmpDir, { recursive: true });
      await this.#sweepTempFiles().catch(() => {}); // best effort: the periodic collection retries
    })().catch((error: unknown) => {
      this.#prepared = undefined;
      throw error;
    });
    return this.#prepared;
  }

  async #sweepTempFiles(): Promise<void> {
    const staleBefore = new Date(Date.now() - STALE_TEMP_MS);
    for await (const page of listAbandonedTempFiles(this.#tmpDir, { staleBefore, pageSize: 100 })) {
      for (const file of page) await rm(join(this.#tmpDir, file.name), { force: true });
    }
  }

  #blobPath(key: string, version: string): string {
    return toVersionPath(this.#rootDir, key, version);
  }
}

/** The file of version `version` of `key` under `rootDir` (a store's root). */
export function toVersionPath(rootDir: string, key: string, version: string): string {
  return join(rootDir, `${toVersionName(key, version)}.blob`);
}

/** The whole file (its size is known: versions never change), read in as few reads as it takes. */
async function readWhole(file: FileHandle, sizeBytes: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(sizeBytes);
  for (let offset = 0; offset < sizeBytes; ) {
    const { bytesRead } = await file.read(bytes, offset, sizeBytes - offset, offset);
    if (bytesRead === 0)
      throw new Error(`a blob version is shorter than its size (${offset} of ${sizeBytes} bytes)`);
    offset += bytesRead;
  }
  return bytes;
}

/** An inclusive byte range of kept bytes, without a copy. */
function toRangeBytes(bytes: Buffer, range: ByteRange | undefined): Buffer {
  return range ? bytes.subarray(range.start, range.end + 1) : bytes;
}

/** A missing file is `undefined`; a failing device still answers as one (toFsStoreError). */
function undefinedIfMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw toFsStoreError(error);
}
