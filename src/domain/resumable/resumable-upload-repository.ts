import type { NewResumableUpload, ResumableUpload } from './resumable-upload.ts';

/**
 * Who holds an upload's lease, and until when: `owner` is the request, `holder` the process it
 * runs in (LeaseHolders.self), so another process can tell when the lease's process died.
 */
export type Lease = { owner: string; until: Date; holder?: string | null };

/** Where a PATCH leaves the upload: its new offset, and the running SHA-256's state and CRC-32 there (or none). */
export type OffsetMove = {
  from: number;
  to: number;
  expiresAt: Date;
  sha256State?: Uint8Array | null;
  crc32State?: number | null;
};

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
  /**
   * Takes the lease from `fromOwner`, whose process is known to be gone, while it still holds
   * it (a conditional update: of two takers, one wins). Answers whether it was taken.
   */
  takeOverLease(id: string, lease: Lease, fromOwner: string): Promise<boolean>;
  /** The upload's current lease, if any (its owner, holder and expiry). */
  findLease(id: string): Promise<Lease | undefined>;
  /** Extends a lease still held by `lease.owner`; false when it was lost (expired and taken). */
  renewLease(id: string, lease: Lease): Promise<boolean>;
  releaseLease(id: string, owner: string): Promise<void>;
  /**
   * Moves the offset from `from` to `to`, saves the SHA-256 state and the CRC-32 there (none
   * when `sha256State` is null or absent) and slides the expiry, in one update, only while `owner` holds the
   * lease and the offset is still `from`: false otherwise (nothing changes).
   */
  advance(id: string, owner: string, move: OffsetMove): Promise<boolean>;
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
