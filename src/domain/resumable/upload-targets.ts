import type { FileRecord, PendingUpload } from '../files/file-record.ts';
import type { QuotaLimits } from '../files/storage-usage-repository.ts';

/**
 * What a resumable upload's bytes go to, named by the upload row's `fileId`: a new file's
 * record (the file repository answers these as they are), or a new version's upload of an
 * existing file (issue 38), seen as a record of its own (versions/upload-target.ts). The
 * upload code reads, commits to and releases either the same way.
 */
export interface UploadTargets {
  /** The record the upload goes to, as a file record; undefined once it is gone. */
  findById(id: string): Promise<FileRecord | undefined>;
  /** Takes the published bytes as the target's pending upload (FileRepository.commitUpload). */
  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
  ): Promise<{ replaced: string | null } | 'verified' | 'missing'>;
  /** Removes a target that never took bytes (an upload terminated or expired), with its reservation. */
  deleteIfNeverUploaded(id: string): Promise<boolean>;
}
