import type { Call, FolderDeletion, FolderMove, FolderPage, FolderShares } from './api-shapes.ts';
import type { ShareWith } from './request-paths.ts';

/** How the client sends a call (its transport: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/** Whose folder a call names: the caller's by default; another user's needs the project's admin role. */
export type FolderOwnerOption = { owner?: string };

/** Which page of a folder: `pageSize` direct files (1…1000, default 100), after `cursor` (a page's nextCursor). */
export type FolderListOptions = FolderOwnerOption & { pageSize?: number; cursor?: string };

/**
 * One owner's folders (`client.folders`), each call the API operation of the same name: a
 * folder is a `/`-ended prefix of the owner's filePaths and exists while a file is under it.
 * Move and delete change every file under the folder in one transaction, or none. A share
 * lets its user or role read every file under the folder, present and future.
 */
export class FolderCalls {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * One page of a folder ('' or absent: the owner's root): its subtree's counts, its direct
   * subfolders with theirs (on the first page), and `pageSize` of its direct files; pass
   * `nextCursor` as `cursor` for the next page (null on the last).
   */
  list(path = '', options: FolderListOptions = {}): Promise<FolderPage> {
    return this.#send({
      method: 'GET',
      path: '/api/v1/folders',
      query: { path, owner: options.owner, pageSize: options.pageSize, cursor: options.cursor },
      auth: true,
    });
  }

  /** Moves (renames) every file under `from` to the same place under `to`; both `/`-ended. */
  move(from: string, to: string, options: FolderOwnerOption = {}): Promise<FolderMove> {
    return this.#send({
      method: 'POST',
      path: '/api/v1/folders/move',
      body: { owner: options.owner, from, to },
      auth: true,
    });
  }

  /** Deletes every file under `path` (`/`-ended): how many, and the bytes they counted. */
  delete(path: string, options: FolderOwnerOption = {}): Promise<FolderDeletion> {
    return this.#send({
      method: 'POST',
      path: '/api/v1/folders/delete',
      body: { owner: options.owner, path },
      auth: true,
    });
  }

  /**
   * Shares the folder ('' the owner's root) with a user (by id or email) or a role: its
   * files, present and future. Answers the shares reaching it (its own and its ancestors').
   */
  share(path: string, with_: ShareWith, options: FolderOwnerOption = {}): Promise<FolderShares> {
    return this.#changeShare('share', path, with_, options);
  }

  /** Removes the share (an absent one is no error) and ends the links it let its grantee obtain. */
  unshare(path: string, with_: ShareWith, options: FolderOwnerOption = {}): Promise<FolderShares> {
    return this.#changeShare('unshare', path, with_, options);
  }

  /** The shares reaching the folder: its own and its ancestors', the root first. */
  shares(path = '', options: FolderOwnerOption = {}): Promise<FolderShares> {
    return this.#send({
      method: 'GET',
      path: '/api/v1/folders/shares',
      query: { path, owner: options.owner },
      auth: true,
    });
  }

  #changeShare(
    action: 'share' | 'unshare',
    path: string,
    with_: ShareWith,
    options: FolderOwnerOption,
  ): Promise<FolderShares> {
    const grantee =
      'userId' in with_
        ? { user: with_.userId }
        : 'role' in with_
          ? { role: with_.role }
          : { email: with_.email };
    return this.#send({
      method: 'POST',
      path: `/api/v1/folders/${action}`,
      body: { owner: options.owner, path, ...grantee },
      auth: true,
    });
  }
}
