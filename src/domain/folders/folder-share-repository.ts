import type { NewEvent } from '../events/event.ts';
import type { AclEntry } from '../files/file-record.ts';
import type { FolderRef, FolderRefusal } from './folder-change-repository.ts';

/** A share of one owner's folder: it lets its user or role read every file under `path`. */
export type FolderShare = AclEntry & { path: string; sharedAt: Date };

/** Whom a principal is, as shares name it. */
export type Grantee = { userId: string; role: string };

export type FolderShareChange = FolderRef & {
  entry: AclEntry;
  now: Date;
  /** Written in the change's transaction, only when it changed something. */
  event: NewEvent;
};

/**
 * Folder shares (issue 36, item 4), kept by path: a share reaches every file of the owner
 * under it, those to come included. Sharing and unsharing move the row stamp of every file
 * under the folder in their commit (records kept per process are read anew); unsharing also
 * moves their links generation, so the links the share let its grantee obtain stop at once.
 */
export interface FolderShareRepository {
  /**
   * Adds the share (sharing twice changes nothing: `{shared: false}`), or refuses a folder
   * with no file or more than `maxFiles`.
   */
  shareFolder(change: FolderShareChange & { maxFiles: number }): Promise<{ shared: boolean } | FolderRefusal>;
  /** Removes the share; `{unshared: false}` when there was none. */
  unshareFolder(change: FolderShareChange): Promise<{ unshared: boolean }>;
  /** The shares that reach the folder: its own and its ancestors', the root first. */
  findSharesReaching(folder: FolderRef): Promise<FolderShare[]>;
  /** Whether a share of the folder or one of its ancestors names the grantee or their role. */
  isSharedWith(folder: FolderRef, grantee: Grantee): Promise<boolean>;
}
