import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobStore, ByteRange, PutBlobOptions, StoredBlob } from '../domain/ports.ts';
import { unavailable } from '../errors/errors.ts';
import { removeFilesOlderThan, syncDirectory, toTempPath, writeFileAtomic } from './atomic-files.ts';
import { assertValidBlobVersion, newBlobVersion } from './blob-key.ts';
import { MeteredStream } from './metered-stream.ts';

export type FsBlobStoreOptions = { rootDir: string };

const STALE_TEMP_MS = 60 * 60 * 1000;

/*
 * Layout: version `v` of key `p/f` is the file `p/f.v.blob` (key segments have no '.', so
 * names never clash). A version is written once and never changed: put() streams into .tmp/,
 * fsyncs, renames the file into place and fsyncs its directory, so a version that put()
 * answered survives a crash, and a crash before that leaves only a temp file. Which version a
 * file serves is the file record's business (the record is the commit point), so the store
 * keeps no pointer of its own and needs no lock.
 */

/** Blobs in a local directory, written atomically and durably (fsync before every publish). */
export class FsBlobStore implements BlobStore {
  readonly #rootDir: string;
  readonly #tmpDir: string;
  #prepared: Promise<void> | undefined;

  constructor(options: FsBlobStoreOptions) {
    this.#rootDir = options.rootDir;
    this.#tmpDir = join(options.rootDir, '.tmp');
  }

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob> {
    const version = newBlobVersion();
    const blobPath = this.#blobPath(key, version);
    await this.#prepare();
    const meter = new MeteredStream({ maxBytes: options.maxBytes, md5: true });
    const tmpPath = toTempPath(this.#tmpDir);
    try {
      // Created before streaming so the cleanup below always finds it, even when aborted at once.
      const handle = await open(tmpPath, 'wx');
      // flush: fsync before close; pipeline settles after close, so the bytes are durable here.
      await pipeline(body, meter, handle.createWriteStream({ flush: true }), { signal: options.signal });
      const { mtime } = await stat(tmpPath);
      await mkdir(dirname(blobPath), { recursive: true });
      await rename(tmpPath, blobPath);
      await syncDirectory(dirname(blobPath));
      return { version, sizeBytes: meter.sizeBytes, etag: meter.toEtag(), lastModified: mtime };
    } catch (error) {
      await rm(tmpPath, { force: true });
      throw error;
    }
  }

  async head(key: string, version: string): Promise<BlobInfo | undefined> {
    const stats = await stat(this.#blobPath(key, version)).catch(undefinedIfMissing);
    return stats && { sizeBytes: stats.size, lastModified: stats.mtime };
  }

  async get(key: string, version: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const handle = await open(this.#blobPath(key, version), 'r').catch(undefinedIfMissing);
    if (!handle) return undefined;
    let info: BlobInfo;
    try {
      const stats = await handle.stat();
      info = { sizeBytes: stats.size, lastModified: stats.mtime };
    } catch (error) {
      await handle.close();
      throw error;
    }
    const { start, end } = options.range ?? {};
    // The stream owns the handle from here (autoClose). 1 MiB reads (not 64 KiB): large
    // downloads go ~1.5x faster; small files read what they hold.
    const highWaterMark = Math.max(1, Math.min(info.sizeBytes, 1024 * 1024));
    const body = handle.createReadStream({ start, end, signal: options.signal, highWaterMark });
    return { info, body };
  }

  async delete(key: string, version: string): Promise<void> {
    await rm(this.#blobPath(key, version), { force: true });
  }

  async check(): Promise<void> {
    try {
      await this.#prepare();
      await access(this.#rootDir, constants.W_OK);
      const probe = toTempPath(this.#tmpDir);
      await writeFileAtomic({ path: probe, data: '', tmpDir: this.#tmpDir });
      await rm(probe);
    } catch (error) {
      throw unavailable('blob store', error);
    }
  }

  /** Creates the directories once and sweeps temp files that crashed writers left behind. */
  #prepare(): Promise<void> {
    this.#prepared ??= (async () => {
      await mkdir(this.#tmpDir, { recursive: true });
      await removeFilesOlderThan(this.#tmpDir, new Date(Date.now() - STALE_TEMP_MS));
    })().catch((error: unknown) => {
      this.#prepared = undefined;
      throw error;
    });
    return this.#prepared;
  }

  #blobPath(key: string, version: string): string {
    assertValidBlobVersion(key, version);
    return join(this.#rootDir, `${key}.${version}.blob`);
  }
}

function undefinedIfMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
