import type { Selectable } from 'kysely';
import { toScanRecord, toScanText } from '../../../domain/admission/scan-record.ts';
import type { FileVersion, VersionUpload } from '../../../domain/versions/file-version.ts';
import type { FileVersionsTable, VersionUploadsTable } from '../../database-schema.ts';

export function toFileVersion(row: Selectable<FileVersionsTable>): FileVersion {
  return {
    fileId: row.file_id,
    versionId: row.version_id,
    blobFileId: row.blob_file_id,
    blobVersion: row.blob_version,
    etag: row.etag,
    content: {
      sizeBytes: Number(row.size_bytes),
      contentType: row.content_type,
      lastModified: new Date(Number(row.content_last_modified)),
      checksumSha256: row.content_sha256,
    },
    contentCrc32: row.content_crc32 === null ? null : Number(row.content_crc32),
    scan: toScanRecord(row.content_scan),
    createdAt: new Date(Number(row.created_at)),
    createdBy: row.created_by,
    noncurrentAt: new Date(Number(row.noncurrent_at)),
  };
}

export function toVersionUpload(row: Selectable<VersionUploadsTable>): VersionUpload {
  const pending =
    row.upload_blob_version !== null &&
    row.upload_etag !== null &&
    row.upload_size_bytes !== null &&
    row.upload_content_type !== null &&
    row.upload_last_modified !== null;
  return {
    id: row.id,
    fileId: row.file_id,
    projectId: row.project_id,
    creatorId: row.creator_id,
    requestedBy: row.requested_by,
    expiresAt: Number(row.expires_at),
    declared: {
      sizeBytes: row.expected_size_bytes === null ? null : Number(row.expected_size_bytes),
      contentType: row.expected_content_type,
      checksumSha256: row.expected_sha256,
    },
    pendingUpload: pending
      ? {
          blobVersion: row.upload_blob_version!,
          etag: row.upload_etag!,
          sizeBytes: Number(row.upload_size_bytes),
          contentType: row.upload_content_type!,
          lastModified: new Date(Number(row.upload_last_modified)),
          checksumSha256: row.upload_sha256,
          crc32: row.upload_crc32 === null ? null : Number(row.upload_crc32),
          ...(row.upload_scan !== null && { scan: toScanRecord(row.upload_scan) }),
        }
      : null,
    createdAt: new Date(Number(row.created_at)),
  };
}

export function toVersionUploadRow(
  upload: VersionUpload,
): Omit<Selectable<VersionUploadsTable>, 'upload_admission'> {
  const pending = upload.pendingUpload;
  return {
    id: upload.id,
    file_id: upload.fileId,
    project_id: upload.projectId,
    creator_id: upload.creatorId,
    requested_by: upload.requestedBy,
    expires_at: upload.expiresAt,
    expected_size_bytes: upload.declared.sizeBytes,
    expected_content_type: upload.declared.contentType,
    expected_sha256: upload.declared.checksumSha256,
    upload_blob_version: pending?.blobVersion ?? null,
    upload_etag: pending?.etag ?? null,
    upload_size_bytes: pending?.sizeBytes ?? null,
    upload_content_type: pending?.contentType ?? null,
    upload_last_modified: pending?.lastModified.getTime() ?? null,
    upload_sha256: pending?.checksumSha256 ?? null,
    upload_crc32: pending?.crc32 ?? null,
    upload_scan: toScanText(pending?.scan),
    created_at: upload.createdAt.getTime(),
  };
}
