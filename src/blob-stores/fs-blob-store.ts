import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, type FileHandle, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobStore, ByteRange, PutBlobOptions } from '../domain/ports.ts';
import { unavailable } from '../errors/errors.ts';
import { removeFilesOlderThan, syncDirectory, toTempPath, writeFileAtomic } from './atomic-files.ts';
import { assertValidBlobKey } from './blob-key.ts';
import { KeyedLock } from './keyed-lock.ts';
import { MeteredStream } from './metered-stream.ts';

export type FsBlobStoreOptions = { rootDir: string };

type Sidecar = { version: string; sizeBytes: number; etag: string; contentType: string };

const STALE_TEMP_MS = 60 * 60 * 1000;

/*
 * Layout and commit order, for key `p/f`:
 *   p/f.json             the sidecar {version, sizeBytes, etag, contentType}: the commit point
 *   p/f.<version>.blob   the bytes of that version (key segments have no '.', so names never clash)
 * put() streams into .tmp/ and fsyncs, renames the bytes to a fresh version file (invisible: no
 * sidecar names it yet), atomically replaces the sidecar, and only then unlinks the old version.
 * So one rename publishes bytes and metadata together and readers see the old object or the new
 * one. The simpler "rename the blob, then the sidecar" over one fixed blob file would show new
 * bytes under the old etag between the two renames when the sizes match (and for good after a
 * crash there). A crash here leaves at worst an unreferenced version file. Readers still treat a
 * missing sidecar, a missing version file or a size disagreement as absent.
 */

/** Blobs in a local directory, written atomically and durably (fsync before every publish). */
export class FsBlobStore implements BlobStore {
  readonly #rootDir: string;
  readonly #tmpDir: string;
  readonly #commits = new KeyedLock();
  #prepared: Promise<void> | undefined;

  constructor(options: FsBlobStoreOptions) {
    this.#rootDir = options.rootDir;
    this.#tmpDir = join(options.rootDir, '.tmp');
  }

  async put(key: string, body: Readable, options: PutBlobOptions): Promise<BlobInfo> {
    assertValidBlobKey(key);
    await this.#prepare();
    const meter = new MeteredStream({ maxBytes: options.maxBytes, md5: true });
    const version = randomBytes(12).toString('hex');
    const blobPath = this.#blobPath(key, version);
    const tmpPath = toTempPath(this.#tmpDir);
    let lastModified: Date;
    try {
      // Created before streaming so the cleanup below always finds it, even when aborted at once.
      const handle = await open(tmpPath, 'wx');
      // flush: fsync before close; pipeline settles after close, so the bytes are durable here.
      await pipeline(body, meter, handle.createWriteStream({ flush: true }), { signal: options.signal });
      lastModified = (await stat(tmpPath)).mtime;
      await mkdir(join(blobPath, '..'), { recursive: true });
      await rename(tmpPath, blobPath);
    } catch (error) {
      await rm(tmpPath, { force: true });
      throw error;
    }
    const sidecar: Sidecar = {
      version,
      sizeBytes: meter.sizeBytes,
      etag: meter.toEtag(),
      contentType: options.contentType,
    };
    await this.#commit(key, sidecar).catch(async (error: unknown) => {
      await rm(blobPath, { force: true });
      throw error;
    });
    return {
      sizeBytes: sidecar.sizeBytes,
      etag: sidecar.etag,
      contentType: sidecar.contentType,
      lastModified,
    };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const opened = await this.#open(key);
    await opened?.handle.close();
    return opened?.info;
  }

  async get(key: string, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const opened = await this.#open(key);
    if (!opened) return undefined;
    const { start, end } = options.range ?? {};
    // The stream owns the handle from here (autoClose), so an unlinked old version stays readable.
    // 1 MiB reads (not 64 KiB): large downloads go ~1.5x faster; small files read what they hold.
    const highWaterMark = Math.max(1, Math.min(opened.info.sizeBytes, 1024 * 1024));
    const body = opened.handle.createReadStream({ start, end, signal: options.signal, highWaterMark });
    return { info: opened.info, body };
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.#commits.run(key, async () => {
      const sidecar = await this.#readSidecar(key);
      if (!sidecar) return;
      await rm(this.#sidecarPath(key), { force: true });
      await syncDirectory(join(this.#sidecarPath(key), '..'));
      await rm(this.#blobPath(key, sidecar.version), { force: true });
    });
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

  /** Publishes a version; serialised per key so each commit unlinks exactly the version it replaced. */
  async #commit(key: string, sidecar: Sidecar): Promise<void> {
    await this.#commits.run(key, async () => {
      const previous = await this.#readSidecar(key);
      await writeFileAtomic({
        path: this.#sidecarPath(key),
        data: JSON.stringify(sidecar),
        tmpDir: this.#tmpDir,
      });
      if (previous) await rm(this.#blobPath(key, previous.version), { force: true });
    });
  }

  async #open(key: string): Promise<{ info: BlobInfo; handle: FileHandle } | undefined> {
    assertValidBlobKey(key);
    // A put may unlink the version we just read about before we open it: read the sidecar again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const sidecar = await this.#readSidecar(key);
      if (!sidecar) return undefined;
      const handle = await open(this.#blobPath(key, sidecar.version), 'r').catch(undefinedIfMissing);
      if (!handle) continue;
      const stats = await handle.stat();
      if (stats.size !== sidecar.sizeBytes) {
        await handle.close();
        return undefined;
      }
      const { sizeBytes, etag, contentType } = sidecar;
      return { info: { sizeBytes, etag, contentType, lastModified: stats.mtime }, handle };
    }
    return undefined;
  }

  async #readSidecar(key: string): Promise<Sidecar | undefined> {
    const text = await readFile(this.#sidecarPath(key), 'utf8').catch(undefinedIfMissing);
    return text === undefined ? undefined : (JSON.parse(text) as Sidecar);
  }

  #sidecarPath(key: string): string {
    return join(this.#rootDir, `${key}.json`);
  }

  #blobPath(key: string, version: string): string {
    return join(this.#rootDir, `${key}.${version}.blob`);
  }
}

function undefinedIfMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
