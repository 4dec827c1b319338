import { fileOnHold, folderConflict, folderShareConflict } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import { type FolderChangeOptions, toRefusalError } from './folder-change-options.ts';
import { validateFolderMove } from './folder-change-paths.ts';
import type { MovedFile } from './folder-change-repository.ts';
import { toFolderEvent } from './folder-events.ts';
import { toFolderOwner } from './folder-owner.ts';

/**
 * POST /api/v1/folders/move (issue 36): every file of one owner under `from` to the same place
 * under `to`, in one transaction. A move changes only file_path: blobs are keyed by file id
 * (storage-key.ts) and links sign the id, so ids, ACLs, customData, bytes and issued links stay.
 */
export class FolderMoves {
  readonly #o: FolderChangeOptions;

  constructor(options: FolderChangeOptions) {
    this.#o = options;
  }

  /**
   * Answers how many files moved: FOLDER_NOT_FOUND, FOLDER_CONFLICT, FOLDER_TOO_LARGE or
   * FILE_ON_HOLD (a held file under the folder, issue 38) when none did.
   */
  async move(
    principal: Principal,
    request: { owner?: string; from: string; to: string },
  ): Promise<{ moved: number }> {
    const { from, to } = validateFolderMove(request);
    const ownerId = toFolderOwner(principal, request.owner);
    const { projectId } = principal;
    const { maxFolderOperationFiles: maxFiles } = await this.#o.settingsOf(projectId);
    const now = this.#o.clock.now();
    const eventsOf = (moved: readonly MovedFile[]) => [
      // The same event a single move writes (file-organizer.ts), one per file.
      ...moved.map((file) =>
        toFileEvent('file.updated', principal, { ...file, projectId, creatorId: ownerId }, now, {
          change: 'move',
          previousFilePath: file.previousFilePath,
        }),
      ),
      toFolderEvent('folder.moved', principal, { projectId, ownerId }, now, {
        from,
        to,
        fileCount: moved.length,
      }),
    ];
    const result = await this.#o.folders.moveFolder({
      ...{ projectId, ownerId, path: from, to },
      ...{ maxFiles, now, eventsOf },
    });
    if ('conflict' in result) throw folderConflict(result.conflict);
    if ('shareConflict' in result) throw folderShareConflict(result.shareConflict);
    if ('held' in result) throw fileOnHold(result.held);
    if ('refused' in result) throw toRefusalError(result, maxFiles);
    return { moved: result.moved.length };
  }
}
