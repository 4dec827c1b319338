import type { NewEvent } from '../events/event.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { ReplacedUpload } from '../files/file-repository.ts';
import type { QuotaLimits } from '../files/storage-usage-repository.ts';

/** A file in the trash (issue 38): its record as it was, and when and by whom it was trashed. */
export type TrashedFile = {
  file: FileRecord;
  /** When it went to the trash. */
  trashedAt: Date;
  /** The actor id of whoever trashed it (a user's id, a service key's name). */
  trashedBy: string;
  /** Its content's bytes and its versions': what it keeps in the store. */
  heldBytes: number;
};

/** A blob version a purge dropped the reference of: `<project>/<blobFileId>` at `version`. */
export type PurgedBlob = { blobFileId: string; version: string };

/** Where a page of one owner's trash starts: after this (trashedAt, id), newest first. */
export type TrashPosition = { trashedAt: number; id: string };

export type TrashOwner = { projectId: string; ownerId: string };

/** Which trash a page reads: one owner's, or (no ownerId) every owner's of the project. */
export type TrashScope = { projectId: string; ownerId?: string };

/**
 * The trash: a trashed file is its `files` row moved to `trashed_files` (migrations/versions-and-trash.ts),
 * so nothing that reads `files` sees it. Each change is one transaction with its events.
 */
export interface TrashRepository {
  /**
   * Moves a verified file to the trash, its ACL with it, its versions no longer counted.
   * 'held' when it is on hold and 'missing' when it is gone or unverified, both judged by the
   * committing statements themselves.
   */
  trash(request: {
    fileId: string;
    trashedBy: string;
    at: Date;
    events: readonly NewEvent[];
  }): Promise<'trashed' | 'held' | 'missing'>;
  /** One of the project's trashed files, if any. */
  find(projectId: string, id: string): Promise<TrashedFile | undefined>;
  /** A page of one owner's trash, or of every owner's in the project, newest first: an index range. */
  list(scope: TrashScope, page: { after?: TrashPosition; limit: number }): Promise<TrashedFile[]>;
  /** Ids of one owner's oldest trashed files, oldest first (the cap, emptying). */
  listOldestIds(owner: TrashOwner, limit: number): Promise<string[]>;
  /** Ids of a project's files trashed before `before` (ms), oldest first (the retention sweep). */
  listExpiredIds(projectId: string, before: number, limit: number): Promise<string[]>;
  /** Projects with anything in the trash. */
  listProjectIds(): Promise<string[]>;
  /** What one owner's trash keeps in the store (storage_usage.trash_bytes). */
  trashBytes(owner: TrashOwner): Promise<number>;
  /**
   * Moves the trashed file back to `files` at `filePath` (its old path or another), with its
   * ACL, its versions counted again, its links generation moved on (old links stay dead).
   * FILE_EXISTS when a live record holds the path (an abandoned upload there is replaced, as
   * create() does); QUOTA_EXCEEDED when `quotas` has no room, judged in the commit. Undefined
   * when there is no such trashed file.
   */
  restore(request: {
    projectId: string;
    id: string;
    filePath: string;
    now: Date;
    quotas?: QuotaLimits;
    eventOf(file: FileRecord): NewEvent;
  }): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined>;
  /**
   * Deletes the trashed file (its versions go with it) and answers the blob versions it
   * referenced, for the caller to remove once nothing else does. 'held' when on hold;
   * undefined when there is no such trashed file.
   */
  purge(request: {
    projectId: string;
    id: string;
    eventOf(file: TrashedFile): NewEvent | undefined;
  }): Promise<{ purged: TrashedFile; blobs: PurgedBlob[] } | 'held' | undefined>;
}
