import type { Call, FolderDeletion, FolderMove, FolderPage } from './api-shapes.ts';

/** How the client sends a call (its transport: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/** Whose folder a call names: the caller's by default; another user's needs the project's admin role. */
export type FolderOwnerOption = { owner?: string };

/** Which page of a folder: `pageSize` direct files (1…1000, default 100), after `cursor` (a page's nextCursor). */
export type FolderListOptions = FolderOwnerOption & { pageSize?: number; cursor?: string };

/**
 * One owner's folders (`client.folders`), each call the API operation of the same name: a
 * folder is a `/`-ended prefix of the owner's filePaths and exists while a file is under it.
 * Move and delete change every file under the folder in one transaction, or none.
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
}
