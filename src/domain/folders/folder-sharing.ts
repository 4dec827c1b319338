import { validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Clock } from '../clock.ts';
import type { AclEntry } from '../files/file-record.ts';
import { type ShareTarget, type ShareTargetOptions, toShareEntry } from '../files/share-target.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { toRefusalError } from './folder-change-options.ts';
import type { FolderRef } from './folder-change-repository.ts';
import { toFolderEvent } from './folder-events.ts';
import { toFolderOwner } from './folder-owner.ts';
import { toFolderPath } from './folder-path.ts';
import type { FolderShare, FolderShareRepository } from './folder-share-repository.ts';

export type FolderSharingOptions = ShareTargetOptions & {
  shares: FolderShareRepository;
  clock: Clock;
  /** The project's settings (maxFolderOperationFiles), cached as the file services cache them. */
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/** A folder and the shares reaching it (its own and its ancestors'), as the routes answer. */
export type SharedFolder = { ownerId: string; path: string; shares: FolderShare[] };

/** A folder share request: whose folder (default the caller's), which, and whom it names. */
export type FolderShareRequest = { owner?: string; path?: string; target: ShareTarget };

/**
 * Sharing whole folders (issue 36, item 4): `POST /api/v1/folders/share` and `/unshare`,
 * `GET /api/v1/folders/shares`. The owner or an admin only; another owner's folder answers
 * FOLDER_NOT_FOUND, as one with no file does.
 */
export class FolderSharing {
  readonly #o: FolderSharingOptions;

  constructor(options: FolderSharingOptions) {
    this.#o = options;
  }

  /** Adds the share; sharing twice changes nothing. */
  async share(principal: Principal, request: FolderShareRequest): Promise<SharedFolder> {
    const folder = this.#toFolder(principal, request);
    const entry = await this.#toEntry(principal, folder.ownerId, request.target);
    const { maxFolderOperationFiles: maxFiles } = await this.#o.settingsOf(folder.projectId);
    const now = this.#o.clock.now();
    const event = toFolderEvent('folder.shared', principal, folder, now, { path: folder.path, entry });
    const result = await this.#o.shares.shareFolder({ ...folder, entry, now, event, maxFiles });
    if ('refused' in result) throw toRefusalError(result, maxFiles);
    return this.#answer(folder);
  }

  /**
   * Removes the share (one that is not there changes nothing) and ends the download links of
   * every file under the folder, as unsharing a file ends its links. Never refused for the
   * folder's size: a grantee must always be removable.
   */
  async unshare(principal: Principal, request: FolderShareRequest): Promise<SharedFolder> {
    const folder = this.#toFolder(principal, request);
    const { target } = request;
    // A user named by id needs no lookup to be removed (a deleted user's share goes too).
    const entry: AclEntry =
      target.scope === 'email' ? await this.#toEntry(principal, folder.ownerId, target) : target;
    const now = this.#o.clock.now();
    const event = toFolderEvent('folder.unshared', principal, folder, now, { path: folder.path, entry });
    await this.#o.shares.unshareFolder({ ...folder, entry, now, event });
    return this.#answer(folder);
  }

  /** The shares reaching the folder: its own and its ancestors' (each with its `path`). */
  async shares(principal: Principal, request: { owner?: string; path?: string }): Promise<SharedFolder> {
    return this.#answer(this.#toFolder(principal, request));
  }

  async #answer(folder: FolderRef): Promise<SharedFolder> {
    const shares = await this.#o.shares.findSharesReaching(folder);
    return { ownerId: folder.ownerId, path: folder.path, shares };
  }

  #toFolder(principal: Principal, request: { owner?: string; path?: string }) {
    const ownerId = toFolderOwner(principal, request.owner);
    return { projectId: principal.projectId, ownerId, path: toFolderPath(request.path) };
  }

  async #toEntry(principal: Principal, ownerId: string, target: ShareTarget): Promise<AclEntry> {
    const entry = await toShareEntry(this.#o, principal, target);
    // The owner reads every folder of their own; a share naming them would only clutter lists.
    if (entry.scope === 'user' && entry.identifier === ownerId)
      throw validationFailed('a folder cannot be shared with its owner');
    return entry;
  }
}
