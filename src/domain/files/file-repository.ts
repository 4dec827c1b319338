import type { ScanRecord } from '../admission/scan-record.ts';
import type { NewEvent } from '../events/event.ts';
import type { CustomData } from './custom-data.ts';
import type {
  AclEntry,
  FileContentInfo,
  FileHold,
  FileRecord,
  NewFile,
  PendingUpload,
} from './file-record.ts';
import type { FileSearchPage, FileSearchQuery } from './file-search.ts';
import type { QuotaLimits } from './storage-usage-repository.ts';

/** An abandoned upload that create() replaced: its bytes are the caller's to remove. */
export type ReplacedUpload = { id: string; pendingBlobVersion: string | null };

/** A never-verified record the sweep removed: its bytes (if any) are the caller's to remove. */
export type SweptUpload = ReplacedUpload & { projectId: string; filePath: string; creatorId: string };

/**
 * Writes that change what the API shows take the event that records them (issue 22): it is
 * written in the change's own transaction, and only when the change happened.
 */
export interface FileRepository {
  /**
   * Inserts the record with the creator as its first ACL entry. When the creator already has
   * a record at this filePath: replaces it if it is unverified and its upload link has expired
   * at `now`, otherwise throws FILE_EXISTS. With `quotas`, a record that takes its owner past
   * one (one more file, its declared length) is refused with QUOTA_EXCEEDED, atomically.
   */
  create(
    file: NewFile,
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload }>;
  findById(id: string): Promise<FileRecord | undefined>;
  /**
   * findById for the hot reads (GET /api/v1/file/:id, downloads; issue 44): may answer a record
   * read less than 250 ms ago, never one read before a write by this process or its sibling
   * workers; a change committed on another node is seen within 250 ms. Write paths use findById.
   */
  findRecentById(id: string): Promise<FileRecord | undefined>;
  /** Many records by id, read in a few statements (an archive's selection); unknown ids are absent. */
  findByIds(ids: readonly string[]): Promise<Map<string, FileRecord>>;
  /** The record a creator holds at a path (the path is unique per creator), if any. */
  findByPath(
    owner: { projectId: string; creatorId: string },
    filePath: string,
  ): Promise<FileRecord | undefined>;
  /** Files the reader may list (creator, user entry, role entry; all of the project for admins), newest first. */
  list(query: FileListQuery): Promise<{ files: FileRecord[]; total: number }>;
  /** GET /api/v1/file with search parameters (issue 40): one page, at a bounded cost. */
  search(query: FileSearchQuery): Promise<FileSearchPage>;
  /** The console's browser: files in path order from a (path, id), an index range a page. */
  browse(page: BrowsePage): Promise<FileRecord[]>;
  /** Returns whether a record was deleted (its ACL goes with it); a held file is not (issue 38). */
  delete(id: string, event?: NewEvent): Promise<boolean>;
  /**
   * Deletes an unverified record that never took an upload (a terminated or expired resumable
   * upload's), releasing what it reserved; the condition is checked by the delete itself, so a
   * PUT that committed first keeps its record. Returns whether it was deleted.
   */
  deleteIfNeverUploaded(id: string): Promise<boolean>;
  /** Ids of the files a user created, in id order after `afterId`, `limit` at most (an index range). */
  listIdsCreatedBy(
    projectId: string,
    creatorId: string,
    page: { afterId?: string; limit: number },
  ): Promise<string[]>;
  /** Ids of files (of any creator) whose ACL has a `user` entry naming this user, `limit` at most. */
  listIdsSharedWithUser(projectId: string, userId: string, limit: number): Promise<string[]>;
  /**
   * Removes the entry if present, bumping version and updatedAt when it was there, and the
   * links generation too: the links it let its users obtain stop with it.
   */
  removeAclEntry(id: string, entry: AclEntry, now: Date, event?: NewEvent): Promise<FileRecord | undefined>;
  /** Adds the entry if absent, bumping version and updatedAt in the same transaction. */
  addAclEntry(id: string, entry: AclEntry, now: Date, event?: NewEvent): Promise<FileRecord | undefined>;
  /**
   * Commits an upload to an unverified record, replacing its pending upload, and answers the
   * blob version it replaced (null: none) so the caller can remove those bytes; 'verified' or
   * 'missing' when the record no longer takes uploads. Concurrent commits to one record are
   * serialized by the database (each replaces exactly the one before it); the record's version
   * is not bumped (an upload is not a change of the record the API shows). With `quotas`, an
   * upload that grows its owner's bytes past one is refused with QUOTA_EXCEEDED, atomically.
   */
  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ replaced: string | null } | 'verified' | 'missing'>;
  /**
   * Takes `upload` (bytes judged by the malware scanner, issue 42) as the pending upload only
   * while the record is unverified, its pending upload is still `expected` (null: none) and has
   * no verdict yet, writing `event` with it; false when another upload or verify came first.
   * With `quotas` (bytes adopted from a direct upload, counted from now on), QUOTA_EXCEEDED
   * when they take the owner or the project past a quota.
   */
  recordUpload(
    id: string,
    expected: string | null,
    upload: PendingUpload,
    event?: NewEvent,
    quotas?: QuotaLimits,
  ): Promise<boolean>;
  /**
   * Marks the file verified and pins `blobVersion`, only while the file is unverified and its
   * pending upload is still `pendingVersion` (null: none, as in direct-upload mode); bumps
   * version once. Undefined when either changed.
   */
  markVerified(
    id: string,
    verification: {
      blobVersion: string;
      etag: string;
      content: FileContentInfo;
      /** The CRC-32 of the pinned bytes; null or absent when not known. */
      contentCrc32?: number | null;
      /** The malware scanner's verdict on the pinned bytes (issue 42); null or absent: not scanned. */
      scan?: ScanRecord | null;
      /** The customData the admission hook set (issue 42), replacing the file's in this commit. */
      customData?: CustomData;
      pendingVersion: string | null;
      event?: NewEvent;
    },
    now: Date,
    /** Direct uploads: the bytes first count at verify, so verify checks the quotas. */
    quotas?: QuotaLimits,
  ): Promise<FileRecord | undefined>;
  /**
   * Deletes at most `limit` records that are still unverified and whose upload link expired
   * before `expiredBefore` (Unix seconds), oldest first, and answers them. The condition is
   * re-checked by the delete itself, so a verify that committed first keeps its record.
   */
  deleteExpiredUnverified(
    expiredBefore: number,
    limit: number,
    eventOf?: (swept: SweptUpload) => NewEvent,
  ): Promise<SweptUpload[]>;
  /**
   * Adds a verified copy of the verified file `sourceId` (same version, content and customData;
   * `blobFileId` its source's; the creator its only ACL entry), locking the source row so a
   * concurrent delete of it waits or wins. Replaces an abandoned upload at the target path like
   * create(); FILE_EXISTS for a live record there; undefined when the source is gone or unverified.
   * With `quotas`, a copy that takes its creator past one (one more file, its source's size) is
   * refused with QUOTA_EXCEEDED, atomically.
   */
  createCopy(
    copy: Pick<NewFile, 'id' | 'projectId' | 'creatorId' | 'filePath' | 'permissionScope'> & {
      sourceId: string;
    },
    now: Date,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined>;
  /**
   * Moves the file to another filePath of its creator, bumping version and updatedAt (the same
   * path: no change). Replaces an abandoned upload there like create(); FILE_EXISTS for a live
   * record; FILE_ON_HOLD for a held file, judged under the row's lock (nothing moves); undefined
   * when there is no such file.
   */
  move(
    id: string,
    filePath: string,
    now: Date,
    event?: NewEvent,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined>;
  /**
   * Whether any record still serves or holds this version of `<project>/<blobFileId>`: files and
   * copies, non-current versions, trashed files and copies, version uploads (issue 38).
   */
  isBlobReferenced(blobFileId: string, version: string): Promise<boolean>;
  /** For a page of storage-key file ids: the versions of each that copies (live or trashed) and non-current versions hold (coffer gc). */
  findSharedBlobVersions(blobFileIds: readonly string[]): Promise<Map<string, Set<string>>>;
  /** Moves the links generation on (every download link issued before stops); false when there is no such file. */
  revokeLinks(id: string, event?: NewEvent): Promise<boolean>;
  /**
   * Sets the legal hold of a verified file (issue 38), or with null clears a held file's,
   * bumping version and updatedAt; undefined when there is no such file (or, clearing, no hold).
   */
  setHold(id: string, hold: FileHold | null, now: Date, event?: NewEvent): Promise<FileRecord | undefined>;
  /** Replaces the file's customData, bumping version and updatedAt; undefined when there is no such file. */
  updateCustomData(
    id: string,
    customData: CustomData,
    now: Date,
    event?: NewEvent,
  ): Promise<FileRecord | undefined>;
  /**
   * Records the CRC-32 of the file's content (computed on first use: content-crc.ts), only while
   * `blobVersion` is still its current version (one conditional update: a file replaced or
   * restored meanwhile never takes a stale CRC). Answers whether it was saved. Not a change of
   * the record the API shows: version and updatedAt stay.
   */
  saveContentCrc32(fileId: string, blobVersion: string, crc: number): Promise<boolean>;
  /**
   * What the given records say about blob versions (coffer gc): one indexed lookup for a page
   * of file ids, never a scan. Ids without a record are absent from the map.
   */
  findBlobReferences(ids: readonly string[]): Promise<Map<string, BlobReferences>>;
}

/** The blob versions a file record needs kept: the one it serves and the one an upload left pending. */
export type BlobReferences = {
  projectId: string;
  verified: boolean;
  blobVersion: string | null;
  uploadBlobVersion: string | null;
};

export type FileListQuery = {
  projectId: string;
  readerId: string;
  readerRole: string;
  isAdmin: boolean;
  /** Only files whose filePath starts with this (literal, no wildcards). */
  filePathPrefix?: string;
  limit: number;
  offset: number;
};

/** A page of the console's file browser (persistence/repositories/files/browse-files.ts). */
export type BrowsePage = {
  projectId: string;
  creatorId?: string;
  /** Only paths that start with this (literal). */
  prefix?: string;
  /** The last file of the page before: the next page starts after its (filePath, id). */
  after?: { filePath: string; id: string };
  limit: number;
};
