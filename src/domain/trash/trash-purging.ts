import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import { type Actor, systemActor } from '../events/event.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { TrashedFile, TrashOwner, TrashRepository } from './trash-repository.ts';

export type TrashPurgingOptions = {
  trash: TrashRepository;
  /** Whether a purged file's bytes are still needed by another record (copies, versions). */
  files: Pick<FileRepository, 'isBlobReferenced'>;
  blobs: BlobStore;
  clock: Clock;
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/** Trashed files purged per batch (a read of ids, then one transaction each). */
export const purgeBatchSize = 100;
const dayMs = 86_400_000;

/**
 * Purging trashed files: one at a time, by its owner, an admin, the cap or the retention sweep.
 * The row goes first (with its versions), then the bytes nothing references any more: a failure
 * leaves a stray version for `coffer gc`, never a record without bytes.
 */
export class TrashPurging {
  readonly #o: TrashPurgingOptions;

  constructor(options: TrashPurgingOptions) {
    this.#o = options;
  }

  /** Purges one trashed file: its record, or 'held', or undefined when it was not there. */
  async purge(projectId: string, id: string, by: Actor): Promise<TrashedFile | 'held' | undefined> {
    const now = this.#o.clock.now();
    const result = await this.#o.trash.purge({
      projectId,
      id,
      eventOf: ({ file, heldBytes }) => toFileEvent('file.purged', by, file, now, { sizeBytes: heldBytes }),
    });
    if (result === undefined || result === 'held') return result;
    for (const blob of result.blobs) {
      // Asked after the commit: a copy or version that committed first is seen.
      if (await this.#o.files.isBlobReferenced(blob.blobFileId, blob.version)) continue;
      await discardBlob(this.#o.blobs, toStorageKey({ projectId, id: blob.blobFileId }), blob.version);
    }
    return result.purged;
  }

  /**
   * The cap (issue 38): an owner's trash keeps at most their byte quota (`userQuotaBytes`, when
   * set); past it, their oldest trashed files are purged until it is within. Answers how many went.
   */
  async enforceCap(owner: TrashOwner): Promise<number> {
    const { userQuotaBytes } = await this.#o.settingsOf(owner.projectId);
    if (userQuotaBytes === null) return 0;
    let purged = 0;
    while ((await this.#o.trash.trashBytes(owner)) > userQuotaBytes) {
      const [oldest] = await this.#o.trash.listOldestIds(owner, 1);
      if (oldest === undefined) return purged;
      if (await this.purge(owner.projectId, oldest, systemActor)) purged += 1;
    }
    return purged;
  }

  /** Purges one owner's whole trash, a bounded batch at a time; answers how many went. */
  async empty(owner: TrashOwner, by: Actor): Promise<number> {
    let purged = 0;
    for (;;) {
      const ids = await this.#o.trash.listOldestIds(owner, purgeBatchSize);
      let progress = 0;
      for (const id of ids)
        if (typeof (await this.purge(owner.projectId, id, by)) === 'object') progress += 1;
      purged += progress;
      // Held files (or a racing purge) make no progress: stop rather than loop on them.
      if (ids.length < purgeBatchSize || progress === 0) return purged;
    }
  }

  /**
   * The retention sweep: every project's files trashed more than its trashRetentionDays ago
   * (the CURRENT setting), at most `maxBatches` batches per project per pass.
   */
  async sweepExpired(options: { maxBatches: number; signal?: AbortSignal }): Promise<{ purged: number }> {
    let purged = 0;
    for (const projectId of await this.#o.trash.listProjectIds()) {
      const { trashRetentionDays } = await this.#o.settingsOf(projectId);
      const before = this.#o.clock.now().getTime() - trashRetentionDays * dayMs;
      for (let batch = 0; batch < options.maxBatches; batch++) {
        options.signal?.throwIfAborted();
        const ids = await this.#o.trash.listExpiredIds(projectId, before, purgeBatchSize);
        let progress = 0;
        for (const id of ids)
          if (typeof (await this.purge(projectId, id, systemActor)) === 'object') progress += 1;
        purged += progress;
        if (ids.length < purgeBatchSize || progress === 0) break;
      }
    }
    return { purged };
  }

  /** When a trashed file is purged by the retention sweep, under the project's current setting. */
  async purgeAtOf(projectId: string, trashedAt: Date): Promise<Date> {
    const { trashRetentionDays } = await this.#o.settingsOf(projectId);
    return new Date(trashedAt.getTime() + trashRetentionDays * dayMs);
  }
}
