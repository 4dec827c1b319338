import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import { type FolderChangeOptions, toRefusalError } from './folder-change-options.ts';
import { validateFolderPath } from './folder-change-paths.ts';
import type { DeletedFile } from './folder-change-repository.ts';
import { toFolderEvent } from './folder-events.ts';
import { toFolderOwner } from './folder-owner.ts';

/** Bytes removed at once after a folder delete: a large folder does not open thousands of requests to the store. */
const discardConcurrency = 8;

/**
 * POST /api/v1/folders/delete (issue 36): every file of one owner under `path`, in one
 * transaction. The storage_usage triggers free the quotas in that commit; a link of a deleted
 * record finds no record and is refused; the bytes go after the commit, as a single delete's do.
 */
export class FolderDeletion {
  readonly #o: FolderChangeOptions;

  constructor(options: FolderChangeOptions) {
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
    const { maxFolderOperationFiles: maxFiles } = await this.#o.settingsOf(projectId);
    const now = this.#o.clock.now();
    const eventsOf = (deleted: readonly DeletedFile[]) => [
      // The same event a single delete writes (file-organizer.ts), one per file.
      ...deleted.map((file) =>
        toFileEvent('file.deleted', principal, { ...file, projectId, creatorId: ownerId }, now, {
          sizeBytes: file.verified ? file.sizeBytes : null,
        }),
      ),
      toFolderEvent('folder.deleted', principal, { projectId, ownerId }, now, {
        path,
        fileCount: deleted.length,
        bytes: sumBytes(deleted),
      }),
    ];
    const result = await this.#o.folders.deleteFolder({ projectId, ownerId, path, maxFiles, eventsOf });
    if ('refused' in result) throw toRefusalError(result, maxFiles);
    await this.#discardBytes(projectId, result.deleted);
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
