import type { BlobStore } from '../blobs/blob-store.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import { systemActor } from '../events/event.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRepository } from './file-repository.ts';
import { toStorageKey } from './storage-key.ts';

export type UnverifiedSweeperOptions = {
  files: FileRepository;
  blobs: BlobStore;
  clock: Clock;
  /** How long after its upload link expired a never-verified record is kept. */
  graceSeconds: number;
  /** Records per batch: one select and one delete each, no transaction across them. */
  batchSize: number;
};

export type SweepReport = { removed: number; bytesRemoved: number; failedByteRemovals: number };

/**
 * Removes records that were never verified once their upload link has been expired for the
 * grace period, then their bytes (issue 10, item 11): the upload was abandoned, and its path
 * stays taken and its bytes stored until then. Records go first, bytes after (a failed byte
 * removal leaves a stray version for the blob collector, never a record without bytes).
 * A verify racing the sweep either commits first (the delete no longer matches: the file
 * stays) or finds no record (FILE_NOT_FOUND). Safe on several nodes at once.
 */
export class UnverifiedSweeper {
  readonly #o: UnverifiedSweeperOptions;

  constructor(options: UnverifiedSweeperOptions) {
    this.#o = options;
  }

  get batchSize(): number {
    return this.#o.batchSize;
  }

  /** One pass: batches until a batch comes back short, or `maxBatches`, or the signal. */
  async sweep(options: { maxBatches?: number; signal?: AbortSignal } = {}): Promise<SweepReport> {
    const report: SweepReport = { removed: 0, bytesRemoved: 0, failedByteRemovals: 0 };
    const expiredBefore = toUnixSeconds(this.#o.clock.now()) - this.#o.graceSeconds;
    for (let batch = 0; batch < (options.maxBatches ?? Number.POSITIVE_INFINITY); batch++) {
      options.signal?.throwIfAborted();
      const now = this.#o.clock.now();
      const swept = await this.#o.files.deleteExpiredUnverified(expiredBefore, this.#o.batchSize, (record) =>
        toFileEvent('upload.expired', systemActor, record, now),
      );
      report.removed += swept.length;
      for (const record of swept) {
        if (!record.pendingBlobVersion) continue;
        const key = toStorageKey({ projectId: record.projectId, id: record.id });
        await this.#o.blobs.delete(key, record.pendingBlobVersion).then(
          () => report.bytesRemoved++,
          () => report.failedByteRemovals++,
        );
      }
      if (swept.length < this.#o.batchSize) break;
    }
    return report;
  }
}
