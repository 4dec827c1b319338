import { folderNotFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { isServiceKeyPrincipal } from '../identity/service-keys.ts';
import { fromFolderCursor, toFolderPath } from './folder-path.ts';
import type { FolderPage, FolderRepository } from './folder-repository.ts';
import type { FolderShareRepository } from './folder-share-repository.ts';

/** Direct files a page answers at most. */
export const maxFolderPageSize = 1000;

/** Direct subfolders a page answers at most (README: the API's limits). */
export const maxSubfolders = 1000;

export type FolderBrowseRequest = {
  /** The folder's owner; absent: the caller. */
  owner?: string;
  /** '' or absent: the owner's root; a missing closing `/` is added. */
  path?: string;
  pageSize: number;
  cursor?: string;
};

/** A page as the API answers it: the folder's own counts, no time (an empty root has none). */
export type BrowsedFolder = Pick<FolderPage, 'subfolders' | 'subfoldersTruncated' | 'files'> & {
  ownerId: string;
  path: string;
  fileCount: number;
  totalBytes: number;
  /** The file path the next page starts after; undefined on the last page. */
  nextCursorAfter: string | undefined;
};

/** Browsing one owner's folders (issue 36, item 1), one page at a time. */
export class FolderBrowsing {
  readonly #folders: FolderRepository;
  readonly #shares: Pick<FolderShareRepository, 'isSharedWith'>;

  constructor(options: { folders: FolderRepository; shares: Pick<FolderShareRepository, 'isSharedWith'> }) {
    this.#folders = options.folders;
    this.#shares = options.shares;
  }

  /**
   * The folder, its direct subfolders (on the first page only: later pages continue its
   * files) and a page of its direct files. FOLDER_NOT_FOUND when the owner has no file under
   * it, and alike for another owner's folder unless the caller is the project's admin or a
   * share of it (or of an ancestor) names the caller or their role, so the
   * answer tells nothing of folders the caller may not read. The caller's own empty root is a
   * page with nothing in it: a new user's first screen is no error.
   */
  async browse(principal: Principal, request: FolderBrowseRequest): Promise<BrowsedFolder> {
    const ownerId = toOwner(principal, request.owner);
    const path = toFolderPath(request.path);
    const afterFilePath = request.cursor === undefined ? undefined : fromFolderCursor(request.cursor);
    // security: fail closed. Another owner's folder opens to admins, and to a grantee of a
    // share of it or of one of its ancestors (issue 36), whose files the grantee may all read.
    if (ownerId !== principal.userId && !principal.isAdmin) {
      const folder = { projectId: principal.projectId, ownerId, path };
      if (!(await this.#shares.isSharedWith(folder, principal))) throw folderNotFound();
    }
    const page = await this.#folders.findPage({
      projectId: principal.projectId,
      ownerId,
      path,
      fileLimit: request.pageSize,
      afterFilePath,
      subfolderLimit: afterFilePath === undefined ? maxSubfolders : 0,
    });
    if (page === undefined) {
      if (path !== '' || ownerId !== principal.userId) throw folderNotFound();
      return { ...emptyFolder, ownerId, path, subfolders: [], files: [] };
    }
    const { folder, subfolders, subfoldersTruncated, files, hasMoreFiles } = page;
    return {
      ...{ ownerId, path, fileCount: folder.fileCount, totalBytes: folder.totalBytes },
      ...{ subfolders, subfoldersTruncated, files },
      nextCursorAfter: hasMoreFiles ? files.at(-1)?.filePath : undefined,
    };
  }
}

function toOwner(principal: Principal, owner: string | undefined): string {
  if (owner !== undefined && owner !== '') return owner;
  // A service key administers a project as no user: it has no folders of its own.
  if (isServiceKeyPrincipal(principal)) throw validationFailed('owner is required with a service key');
  return principal.userId;
}

const emptyFolder = { fileCount: 0, totalBytes: 0, subfoldersTruncated: false, nextCursorAfter: undefined };
