import type { NewEvent } from '../events/event.ts';

/** One owner's folder: the owner is the files' creator (`<project>/<owner>/<filePath>`). */
export type FolderRef = { projectId: string; ownerId: string; path: string };

/** A file a folder move moved: its id, where it is now and where it was. */
export type MovedFile = { id: string; filePath: string; previousFilePath: string };

/** A file a folder delete removed, with what its bytes' removal after the commit needs. */
export type DeletedFile = {
  id: string;
  filePath: string;
  /** What it counted in its owner's storage usage (storage-usage.ts): what the delete freed. */
  sizeBytes: number;
  verified: boolean;
  blobVersion: string | null;
  pendingBlobVersion: string | null;
  /** A copy's source for its bytes; null: its own storage key. */
  blobFileId: string | null;
  /** Moved to the trash (issue 38): its bytes stay. */
  trashed: boolean;
};

/**
 * Why a folder change changed nothing: no file under the folder, more than it may change, or a
 * file under it on hold (issue 38; `filePath` names the first).
 */
export type FolderRefusal =
  | { refused: 'empty' }
  | { refused: 'tooLarge'; fileCount: number }
  | { refused: 'held'; filePath: string };

/**
 * What a folder move did: moved, or nothing because a target path is taken (`conflict`), a
 * moved folder share would land on a folder holding files outside the move (`shareConflict`),
 * or a file under the folder is on a legal hold (`held`: its path, the first in path order).
 */
export type FolderMoveResult =
  | { moved: MovedFile[] }
  | { conflict: string }
  | { shareConflict: string }
  | { held: string }
  | FolderRefusal;

export type FolderMove = FolderRef & {
  to: string;
  /** More files than this under the folder: refused whole. */
  maxFiles: number;
  now: Date;
  /** The events of the move, written in its transaction (issue 22). */
  eventsOf(moved: readonly MovedFile[]): NewEvent[];
};

export type FolderDeletion = FolderRef & {
  maxFiles: number;
  /** Verified files go to the trash, trashed at and by these (issue 38); absent: all deleted for good. */
  trash?: { trashedAt: number; trashedBy: string };
  eventsOf(deleted: readonly DeletedFile[]): NewEvent[];
};

/**
 * Folder moves and deletes (issue 36), each one transaction over every file under the folder:
 * a file racing it (an upload, a copy, a single move or delete) ends wholly inside or wholly
 * outside the set it changed.
 */
export interface FolderChangeRepository {
  /**
   * Moves every file under `path` to the same place under `to` (ids, ACLs, customData, links
   * kept; version bumped), or nothing: `{conflict}` names the first target path, in path order,
   * that a file outside the moved set holds; `{held}` the first file under the folder on hold,
   * judged in the transaction that moves. The subtree's folder shares move along.
   */
  moveFolder(move: FolderMove): Promise<FolderMoveResult>;
  /**
   * Deletes every file under `path` (their ACLs go with them) and the subtree's folder shares,
   * or nothing; with `trash`, the verified ones go to the trash (their own ACLs with them).
   * Refused whole when a file under it is on hold, judged in the transaction.
   */
  deleteFolder(deletion: FolderDeletion): Promise<{ deleted: DeletedFile[] } | FolderRefusal>;
}
