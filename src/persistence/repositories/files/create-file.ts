import type { FileRecord, FolderAclEntry, NewFile } from '../../../domain/files/file-record.ts';
import type { ReplacedUpload } from '../../../domain/files/file-repository.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { fileExists } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { TransactionRunner } from '../group-commit.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { deleteAbandonedUpload } from './delete-abandoned-upload.ts';
import type { FileInserts } from './file-inserts.ts';
import { toFileRecord } from './file-rows.ts';
import { findFolderAcls } from './folder-acl-rows.ts';

/**
 * FileRepository.create: the record of an upload request, with its creator's ACL entry: on
 * PostgreSQL, when its path is free, in one statement (`inserts.createAtOnce`); else in a
 * transaction `transact` may share with concurrent requests (group commit on SQLite).
 */
export async function createFile(
  transact: TransactionRunner,
  inserts: FileInserts,
  file: NewFile,
  now: Date,
  quotas?: QuotaLimits,
): Promise<{ file: FileRecord; replaced?: ReplacedUpload }> {
  const row = toNewFileRow(file, now);
  const toCreated = (folderAcl: FolderAclEntry[]) =>
    toFileRecord(
      { ...row, ...noVersionsNorHold },
      [{ scope: 'user', identifier: file.creatorId }],
      folderAcl,
    );
  try {
    // PostgreSQL: a free path in one round trip, six before (create-file-at-once.ts); a taken
    // one (nothing written) goes on to the transaction below.
    const sharesReaching = await inserts.createAtOnce?.(row, quotas);
    if (sharesReaching !== undefined) return { file: toCreated(sharesReaching) };
    // The common case is a free path: the insert claims it (ON CONFLICT DO NOTHING) and the
    // abandoned-upload check runs only when something is already there. Both statements are
    // compiled once: building them was ~14% of an upload request's CPU.
    let folderAcl: FolderAclEntry[] = [];
    const replaced = await transact(async (trx) => {
      let replaced: ReplacedUpload | undefined;
      if ((await inserts.claimPath(trx, row)).length === 0) {
        replaced = await deleteAbandonedUpload(trx, file, now);
        await inserts.insertFile(trx, row);
      }
      await inserts.insertCreatorAcl(trx, file.id, file.creatorId, row.project_id, row.created_at);
      if (quotas) {
        const grew = { files: replaced === undefined, bytes: (row.expected_size_bytes ?? 0) > 0 };
        await assertUsageWithin(trx, { projectId: file.projectId, userId: file.creatorId }, quotas, grew);
      }
      // A share of a folder holding the new path reaches it from the start (issue 36).
      folderAcl = (await findFolderAcls(trx, [row])).get(row.id) ?? [];
      return replaced;
    });
    const created = toCreated(folderAcl);
    return replaced === undefined ? { file: created } : { file: created, replaced };
  } catch (error) {
    // A live record at this path, or a concurrent create that committed first.
    if (isUniqueViolation(error)) throw fileExists();
    throw error;
  }
}

/**
 * A new record's columns that its insert leaves to their defaults (null): first version, no
 * hold, no video probe, no CRC-32 nor scan yet, not quarantined. Kept out of toNewFileRow, which tests of older migrations insert.
 */
export const noVersionsNorHold = {
  version_id: null,
  version_created_at: null,
  version_created_by: null,
  hold_reason: null,
  held_at: null,
  held_by: null,
  media_duration_ms: null,
  media_video_codec: null,
  media_audio_codec: null,
  content_crc32: null,
  upload_crc32: null,
  quarantined_at: null,
  quarantine_signature: null,
  quarantine_version_id: null,
  content_scan: null,
  upload_scan: null,
  upload_admission: null,
} as const;

/** The row of a new, unverified record: every column, in the same order on every call (it is prepared). */
export function toNewFileRow(file: NewFile, now: Date) {
  return {
    id: file.id,
    project_id: file.projectId,
    creator_id: file.creatorId,
    file_path: file.filePath,
    permission_scope: file.permissionScope,
    verified: 0,
    etag: null,
    content_size_bytes: null,
    content_type: null,
    content_last_modified: null,
    blob_version: null,
    upload_blob_version: null,
    upload_etag: null,
    upload_size_bytes: null,
    upload_content_type: null,
    upload_last_modified: null,
    upload_expires_at: file.uploadExpiresAt,
    created_at: now.getTime(),
    updated_at: now.getTime(),
    version: 0,
    custom_data: file.customData ? JSON.stringify(file.customData) : null,
    links_generation: 0,
    blob_file_id: null,
    expected_size_bytes: file.declared?.sizeBytes ?? null,
    expected_content_type: file.declared?.contentType ?? null,
    expected_sha256: file.declared?.checksumSha256 ?? null,
    upload_sha256: null,
    content_sha256: null,
    image_width: null,
    image_height: null,
    image_placeholder: null,
    image_summary_due: 0,
  };
}
