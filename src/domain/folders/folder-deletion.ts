import type { Principal } from '../access/decide-file-access.ts';
import { toActor, toFileEvent } from '../events/file-events.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { TrashPurging } from '../trash/trash-purging.ts';
import { type FolderChangeOptions, toRefusalError } from './folder-change-options.ts';
import { validateFolderPath } from './folder-change-paths.ts';
import type { DeletedFile } from './folder-change-repository.ts';
import { toFolderEvent } from './folder-events.ts';
import { toFolderOwner } from './folder-owner.ts';

export type FolderDeletionOptions = FolderChangeOptions & {
  /** A trashing folder delete holds its owner's trash to the cap after the commit (issue 38). */
  purging: Pick<TrashPurging, 'enforceCap'>;
};

/** Bytes removed at once after a folder delete: a large folder does not open thousands of requests to the store. */
const discardConcurrency = 8;

/**
 * POST /api/v1/folders/delete (issue 36): every file of one owner under `path`, in one
 * transaction; the verified ones to the trash while the project keeps one (issue 38). The storage_usage triggers free the quotas in that commit; a link of a deleted
 * record finds no record and is refused; the bytes go after the commit, as a single delete's do.
 */
export class FolderDeletion {
  readonly #o: FolderDeletionOptions;

  constructor(options: FolderDeletionOptions) {
    this.#o = options;
  }

  /** Answers how many files and bytes went: FOLDER_NOT_FOUND or FOLDER_TOO_LARGE when none did. */
  async delete(
    principal: Principal,
    request: { owner?: string; path: string },
  ): Promise<{ deleted: number; bytes: number }> {
    const path = validateFolderPath(request.path, 'path');
    const ownerId = toFolderOwner(principal, request.owner);
    const { projectId } = principal;
    const settings = await this.#o.settingsOf(projectId);
    const maxFiles = settings.maxFolderOperationFiles;
    const now = this.#o.clock.now();
    // Verified files go to the trash while the project keeps one, as single deletes (file-organizer.ts).
    const trash =
      settings.trashRetentionDays > 0
        ? { trashedAt: now.getTime(), trashedBy: toActor(principal).id ?? '' }
        : undefined;
    const eventsOf = (deleted: readonly DeletedFile[]) => [
      // The same events a single delete writes (file-organizer.ts), per file.
      ...deleted.flatMap((file) => {
        const data = { sizeBytes: file.verified ? file.sizeBytes : null };
        const record = { ...file, projectId, creatorId: ownerId };
        const gone = toFileEvent('file.deleted', principal, record, now, data);
        return file.trashed ? [toFileEvent('file.trashed', principal, record, now, data), gone] : [gone];
      }),
      toFolderEvent('folder.deleted', principal, { projectId, ownerId }, now, {
        path,
        fileCount: deleted.length,
        bytes: sumBytes(deleted),
      }),
    ];
    const result = await this.#o.folders.deleteFolder({
      ...{ projectId, ownerId, path, maxFiles, eventsOf },
      ...(trash ? { trash } : {}),
    });
    if ('refused' in result) throw toRefusalError(result, maxFiles);
    await this.#discardBytes(
      projectId,
      result.deleted.filter((file) => !file.trashed),
    );
    if (trash) await this.#o.purging.enforceCap({ projectId, ownerId });
    return { deleted: result.deleted.length, bytes: sumBytes(result.deleted) };
  }

  /** After the commit, as FileOrganizer.delete: a failure leaves a stray version for `coffer gc`. */
  async #discardBytes(projectId: string, deleted: readonly DeletedFile[]): Promise<void> {
    const queue = [...deleted];
    const worker = async () => {
      for (let file = queue.pop(); file; file = queue.pop()) await this.#discardFile(projectId, file);
    };
    await Promise.all(Array.from({ length: discardConcurrency }, worker));
  }

  async #discardFile(projectId: string, file: DeletedFile): Promise<void> {
    for (const version of [file.blobVersion, file.pendingBlobVersion]) {
      if (!version) continue;
      // Copies share verified bytes: asked after the commit, so a copy that committed first is seen.
      if (file.verified && (await this.#o.files.isBlobReferenced(file.blobFileId ?? file.id, version)))
        continue;
      await discardBlob(this.#o.blobs, toStorageKey({ projectId, ...file }), version);
    }
  }
}

function sumBytes(files: readonly DeletedFile[]): number {
  return files.reduce((sum, file) => sum + file.sizeBytes, 0);
}
