import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { addAbortSignal, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StoredBlob } from '../domain/blobs/blob-store.ts';
import { etagFromSha256 } from '../domain/blobs/content-etag.ts';
import { HashThread } from '../domain/files/hash-thread.ts';
import type {
  AppendOptions,
  CompleteOptions,
  PartialBlob,
  PartialBlobStore,
} from '../domain/resumable/partial-blob-store.ts';
import { syncDirectory } from './atomic-files.ts';
import { assertValidBlobVersion } from './blob-key.ts';
import { toFileWriter } from './file-writer.ts';
import { toVersionPath } from './fs-blob-store.ts';
import { toFsStoreError } from './fs-errors.ts';
import { FlushBehind } from './fs-flush-behind.ts';
import { MeteredStream } from './metered-stream.ts';

export type FsPartialStoreOptions = {
  /** The FsBlobStore's root: versions are published into it. */
  rootDir: string;
  /** Where the ETag's SHA-256 is computed when the caller did not hash the bytes. */
  hashes?: HashThread;
};

/*
 * Layout: the bytes of an upload that will become version `v` wait in `.resumable/v.part`
 * under the blob store's root, on the same file system, so that complete() is a rename. Not in
 * `.tmp/`: FsBlobStore sweeps its files after an hour or once their writer process is gone,
 * while a resumable upload lives a day and outlives the process that began it. The file may
 * hold bytes past the upload row's offset (a crash before the row moved, a refused chunk):
 * every append first cuts the file back to the row's offset, and complete() to the length.
 */

/** Resumable uploads' bytes in one file per upload, appended in place and made durable per append. */
export class FsPartialStore implements PartialBlobStore {
  readonly #rootDir: string;
  readonly #partDir: string;
  readonly #hashes: HashThread;

  constructor(options: FsPartialStoreOptions) {
    this.#rootDir = options.rootDir;
    this.#partDir = join(options.rootDir, '.resumable');
    this.#hashes = options.hashes ?? new HashThread();
  }

  async begin(blob: Omit<PartialBlob, 'storeState'>): Promise<null> {
    const partPath = this.#partPath(blob);
    try {
      const created = await mkdir(this.#partDir, { recursive: true });
      if (created) await syncDirectory(dirname(created));
      await writeFile(partPath, '', { flush: true });
      // The file's name is durable before the upload row that points at it exists.
      await syncDirectory(this.#partDir);
    } catch (error) {
      throw toFsStoreError(error);
    }
    return null;
  }

  async append(blob: PartialBlob, offset: number, body: Readable, options: AppendOptions = {}) {
    if (options.signal) addAbortSignal(options.signal, body);
    const handle = await this.#openPart(blob, offset);
    // The flush boundary (issue 35): every MiB written is made durable, and told, as it goes.
    const flush = new FlushBehind(handle, {
      offset,
      ...(options.onDurable && { onDurable: options.onDurable }),
    });
    try {
      // Bytes past the row's offset never count: the body overwrites them from there.
      await handle.truncate(offset);
      const arrival: Arrival = { bytes: 0 };
      await pipeline(
        untilFailure(body, arrival),
        toFileWriter(handle, offset, (end) => flush.written(end)),
      );
      // Durable before the answer moves the row: the offset is a promise to the client.
      await flush.finish();
      const end = offset + arrival.bytes;
      return arrival.failure === undefined ? { offset: end } : { offset: end, failure: arrival.failure };
    } catch (error) {
      throw toFsStoreError(error);
    } finally {
      await flush.settle();
      await handle.close().catch(() => {});
    }
  }

  async complete(blob: PartialBlob, options: CompleteOptions): Promise<StoredBlob> {
    const versionPath = toVersionPath(this.#rootDir, blob.key, blob.version);
    const partPath = this.#partPath(blob);
    try {
      const handle = await open(partPath, 'r+').catch(undefinedIfMissing);
      // Gone: an earlier complete() published it (its answer or the record's update was lost).
      if (!handle) return await this.#findPublished(blob, versionPath, options);
      let lastModified: Date;
      try {
        await assertHolds(handle, blob.length, partPath);
        await handle.truncate(blob.length);
        await handle.sync();
        lastModified = (await handle.stat()).mtime;
      } finally {
        await handle.close();
      }
      const etag = await this.#toEtag(partPath, options);
      await mkdir(dirname(versionPath), { recursive: true });
      await rename(partPath, versionPath);
      await syncDirectory(dirname(versionPath));
      return { version: blob.version, sizeBytes: blob.length, etag, lastModified };
    } catch (error) {
      throw toFsStoreError(error);
    }
  }

  async abort(blob: PartialBlob): Promise<void> {
    await rm(this.#partPath(blob), { force: true }).catch((error: unknown) => {
      throw toFsStoreError(error);
    });
  }

  /** A published version is the whole file: nothing is kept beside it. */
  async cleanUp(): Promise<void> {}

  async #openPart(blob: PartialBlob, offset: number): Promise<FileHandle> {
    const partPath = this.#partPath(blob);
    const handle = await open(partPath, 'r+').catch((error: unknown) => {
      throw toFsStoreError(error);
    });
    try {
      await assertHolds(handle, offset, partPath);
    } catch (error) {
      await handle.close().catch(() => {});
      throw toFsStoreError(error);
    }
    return handle;
  }

  async #findPublished(
    blob: PartialBlob,
    versionPath: string,
    options: CompleteOptions,
  ): Promise<StoredBlob> {
    const published = await stat(versionPath).catch(undefinedIfMissing);
    if (published?.size !== blob.length) {
      throw new Error(`the upload's file is gone and ${versionPath} does not hold its ${blob.length} bytes`);
    }
    const etag = await this.#toEtag(versionPath, options);
    return { version: blob.version, sizeBytes: blob.length, etag, lastModified: published.mtime };
  }

  /**
   * The file's tag, as FsBlobStore tags versions (content-etag.ts): from the caller's SHA-256,
   * or from one read back (on the hashing thread) when it has none.
   */
  async #toEtag(path: string, options: CompleteOptions): Promise<string> {
    if (options.sha256) return etagFromSha256(options.sha256);
    const meter = new MeteredStream({
      maxBytes: Number.POSITIVE_INFINITY,
      sha256: this.#hashes.open(),
    });
    await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), meter, async (hashed) => {
      for await (const _ of hashed);
    });
    return etagFromSha256(meter.sha256);
  }

  #partPath(blob: Pick<PartialBlob, 'key' | 'version'>): string {
    assertValidBlobVersion(blob.key, blob.version);
    return join(this.#partDir, `${blob.version}.part`);
  }
}

type Arrival = { bytes: number; failure?: unknown };

/**
 * The body's chunks, ending rather than failing where the body fails (the client went away):
 * what arrived before is still written and kept, and the failure is told with the answer.
 */
async function* untilFailure(body: Readable, arrival: Arrival): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) {
      arrival.bytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  } catch (error) {
    arrival.failure = error;
  }
}

/** The caller vouches that `sizeBytes` were made durable: fewer means the file was lost or cut. */
async function assertHolds(handle: FileHandle, sizeBytes: number, path: string): Promise<void> {
  const { size } = await handle.stat();
  if (size < sizeBytes) throw new Error(`${path} holds ${size} bytes, fewer than the ${sizeBytes} kept`);
}

function undefinedIfMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
