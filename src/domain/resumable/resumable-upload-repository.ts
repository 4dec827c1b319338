import type { NewResumableUpload, ResumableUpload } from './resumable-upload.ts';

/** Who holds an upload's lease, and until when. */
export type Lease = { owner: string; until: Date };

/** Resumable uploads in progress: their offsets, and the lease that lets one writer at a time in. */
export interface ResumableUploadRepository {
  create(upload: NewResumableUpload): Promise<void>;
  findById(id: string): Promise<ResumableUpload | undefined>;
  /** The file's upload still receiving bytes (a record has at most one), if any. */
  findReceivingByFileId(fileId: string): Promise<ResumableUpload | undefined>;
  /**
   * Takes the upload's lease unless someone else holds a live one (across processes and
   * nodes: it is a row, not a lock held in a transaction, so no connection is pinned while
   * bytes stream). Answers whether it was taken.
   */
  takeLease(id: string, lease: Lease, now: Date): Promise<boolean>;
  /** Extends a lease still held by `lease.owner`; false when it was lost (expired and taken). */
  renewLease(id: string, lease: Lease): Promise<boolean>;
  releaseLease(id: string, owner: string): Promise<void>;
  /**
   * Moves the offset from `from` to `to` and slides the expiry, only while `owner` holds the
   * lease and the offset is still `from`: false otherwise (nothing changes).
   */
  advance(id: string, owner: string, move: { from: number; to: number; expiresAt: Date }): Promise<boolean>;
  /** The upload's bytes became its file's upload (the commit is done): kept to answer repeats. */
  markCommitted(id: string, etag: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Uploads whose expiry has passed, oldest first, at most `limit`. */
  listExpired(now: Date, limit: number): Promise<ResumableUpload[]>;
  /** Whether an upload in progress will publish this version of the file (the collector keeps its bytes). */
  holdsVersion(fileId: string, blobVersion: string): Promise<boolean>;
  /** Uploads still receiving bytes, and the bytes they hold so far (GET /metrics). */
  measureInProgress(): Promise<{ uploads: number; bytes: number }>;
}
