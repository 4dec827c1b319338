import type { BlobStore } from '../blobs/blob-store.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ProjectRepository } from '../identity/project-repository.ts';
import { releaseBlobs } from './release-blobs.ts';
import type { VersionRepository } from './version-repository.ts';

export type VersionSweeperOptions = {
  versions: VersionRepository;
  files: Pick<FileRepository, 'isBlobReferenced'>;
  projects: Pick<ProjectRepository, 'list'>;
  blobs: BlobStore;
  clock: Clock;
  /** How long after its link expired an unverified version upload is kept (as for new files). */
  graceSeconds: number;
  /** Rows per batch: one short transaction each. */
  batchSize: number;
};

export type VersionSweepReport = { uploadsRemoved: number; versionsPruned: number };

const dayMs = 86_400_000;

/**
 * The retention of versions (issue 38, item 2), beside the pruning by count that every new
 * version does in its own commit: earlier versions older than their project's
 * versionRetentionDays go (never a held file's), and new-version uploads abandoned past their
 * link's expiry and the grace period go with their bytes. Judged against the settings of now,
 * so a shorter retention applies to what is already kept. Rows first, bytes after; safe on
 * several nodes at once (each delete re-checks its condition).
 */
export class VersionSweeper {
  readonly #o: VersionSweeperOptions;

  constructor(options: VersionSweeperOptions) {
    this.#o = options;
  }

  get batchSize(): number {
    return this.#o.batchSize;
  }

  /** One pass: at most `maxBatches` batches of each kind. */
  async sweep(options: { maxBatches?: number; signal?: AbortSignal } = {}): Promise<VersionSweepReport> {
    const report: VersionSweepReport = { uploadsRemoved: 0, versionsPruned: 0 };
    const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
    const expiredBefore = toUnixSeconds(this.#o.clock.now()) - this.#o.graceSeconds;
    for (let batch = 0; batch < maxBatches; batch++) {
      options.signal?.throwIfAborted();
      const expired = await this.#o.versions.deleteExpiredUploads(expiredBefore, this.#o.batchSize);
      report.uploadsRemoved += expired.length;
      for (const upload of expired) {
        if (!upload.pendingUpload) continue;
        const key = toStorageKey({ projectId: upload.projectId, id: upload.id });
        await discardBlob(this.#o.blobs, key, upload.pendingUpload.blobVersion);
      }
      if (expired.length < this.#o.batchSize) break;
    }
    for (const project of await this.#o.projects.list()) {
      const before = new Date(this.#o.clock.now().getTime() - project.settings.versionRetentionDays * dayMs);
      for (let batch = 0; batch < maxBatches; batch++) {
        options.signal?.throwIfAborted();
        const pruned = await this.#o.versions.pruneOlderThan(project.id, before, this.#o.batchSize);
        report.versionsPruned += pruned.length;
        await releaseBlobs(this.#o, project.id, pruned);
        if (pruned.length < this.#o.batchSize) break;
      }
    }
    return report;
  }
}
