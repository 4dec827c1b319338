import type { ScanRecord } from '../admission/scan-record.ts';
import type { FileContentInfo, PendingUpload, UploadContract } from '../files/file-record.ts';

/**
 * One of a file's earlier versions (issue 38): its bytes (immutable, under the storage key
 * `<project>/<blobFileId>`), what they were, and who made them when.
 */
export type FileVersion = {
  fileId: string;
  versionId: string;
  blobFileId: string;
  blobVersion: string;
  etag: string;
  content: FileContentInfo;
  /** The CRC-32 (uint32) of its bytes; null when not known (as FileRecord.contentCrc32). */
  contentCrc32: number | null;
  /** The malware scanner's verdict on its bytes (issue 42); null: not scanned. */
  scan: ScanRecord | null;
  createdAt: Date;
  createdBy: string;
  /** When another version became current. */
  noncurrentAt: Date;
};

/** A new version on its way (requested, maybe uploaded, not verified): its id becomes the version's. */
export type VersionUpload = {
  id: string;
  fileId: string;
  projectId: string;
  /** The file's owner: the bytes count against their quota. */
  creatorId: string;
  requestedBy: string;
  /** Unix seconds: the upload link's end, after which the sweep removes the upload. */
  expiresAt: number;
  declared: UploadContract;
  /** The last upload committed to it, if any (the last PUT wins, as for a new file). */
  pendingUpload: PendingUpload | null;
  createdAt: Date;
};

/** The bytes a pruned or deleted version held: removed after the commit unless still referenced. */
export type ReleasedBlob = { blobFileId: string; blobVersion: string };
