import type { ScanRecord } from '../admission/scan-record.ts';
import type { NewEvent } from '../events/event.ts';
import type { CustomData } from '../files/custom-data.ts';
import type { FileRecord, PendingUpload } from '../files/file-record.ts';
import type { QuotaLimits } from '../files/storage-usage-repository.ts';
import type { FileVersion, ReleasedBlob, VersionUpload } from './file-version.ts';

/** What becomes a file's current version: an upload's bytes, or an earlier version's. */
export type NewCurrentVersion = {
  versionId: string;
  blobFileId: string;
  blobVersion: string;
  etag: string;
  content: { sizeBytes: number; contentType: string; lastModified: Date; checksumSha256: string | null };
  /** The CRC-32 of the bytes, which travels with them (null: not known). */
  contentCrc32: number | null;
  /** The malware scanner's verdict on the bytes (issue 42), which travels with them too. */
  scan: ScanRecord | null;
  /** The customData the admission hook set for an upload's bytes (issue 42): replaces the file's. */
  customData?: CustomData;
  createdBy: string;
};

/** Why a promotion did not happen: no such verified file, a hold, or the upload changed meanwhile. */
export type PromotionRefusal = 'missing' | 'held' | 'changed';

/**
 * Versions (issue 38) over `file_versions` and `version_uploads`. Every change that makes a
 * version current is one transaction: the file's current version becomes a row of
 * `file_versions`, the file row takes the new one, the versions beyond `versionsKept` go, and
 * the event is written, so a crash leaves the old state or the new one, never a mix.
 */
export interface VersionRepository {
  /** Adds the upload; with `quotas`, refuses (QUOTA_EXCEEDED) one whose declared length does not fit. */
  createUpload(upload: VersionUpload, quotas?: QuotaLimits): Promise<void>;
  findUpload(id: string): Promise<VersionUpload | undefined>;
  /**
   * Commits a PUT's bytes to the upload (the last one wins) and answers the blob version it
   * replaced (null: none), or 'missing' when the upload is gone. With `quotas`, bytes that take
   * the owner past one are refused with QUOTA_EXCEEDED, atomically.
   */
  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ replaced: string | null } | 'missing'>;
  /** As FileRepository.recordUpload, for a new version's upload: false when its pending bytes changed. */
  recordUpload(
    id: string,
    expected: string | null,
    upload: PendingUpload,
    event?: NewEvent,
    quotas?: QuotaLimits,
  ): Promise<boolean>;
  /**
   * Makes `current` the file's current version: the one it replaces becomes an earlier version,
   * the earliest beyond `versionsKept` are removed (their bytes answered), and `event` written.
   * With `fromUpload`, only while that upload still holds `pendingVersion` (the upload row goes
   * in the same commit); with `quotas`, refused when the kept bytes no longer fit.
   */
  promote(
    fileId: string,
    current: NewCurrentVersion,
    options: {
      now: Date;
      versionsKept: number;
      event: NewEvent;
      fromUpload?: { id: string; pendingVersion: string | null };
      quotas?: QuotaLimits;
    },
  ): Promise<{ file: FileRecord; pruned: ReleasedBlob[] } | PromotionRefusal>;
  /** The file's earlier versions, newest first (at most versionsKept of them, a short list). */
  list(fileId: string): Promise<FileVersion[]>;
  find(fileId: string, versionId: string): Promise<FileVersion | undefined>;
  /** Removes an earlier version (not while the file is held); answers its bytes, or the refusal. */
  delete(fileId: string, versionId: string, event: NewEvent): Promise<ReleasedBlob | 'missing' | 'held'>;
  /**
   * Removes at most `limit` earlier versions of the project's files that became earlier before
   * `before` (never a held file's), oldest first, and answers their bytes.
   */
  pruneOlderThan(projectId: string, before: Date, limit: number): Promise<ReleasedBlob[]>;
  /**
   * Removes an upload that never took bytes (its resumable upload was terminated or expired),
   * releasing its reservation; one that took a PUT's or the last chunk's bytes stays.
   */
  deleteUploadIfNeverUploaded(id: string): Promise<boolean>;
  /** Removes at most `limit` uploads whose link ended before `expiredBefore` (Unix s), answering them. */
  deleteExpiredUploads(expiredBefore: number, limit: number): Promise<VersionUpload[]>;
}
