import type { FilesTable } from '../database-schema.ts';

// What `trashed_files` and `trashed_file_acl` (migrations/versions-and-trash.ts) copy of a file.

/**
 * The columns `trashed_files` was created with (migration 0034): frozen, since a migration must
 * build the same table whatever came after it.
 */
const mirroredFileColumnsOf0034 = [
  'id',
  'project_id',
  'creator_id',
  'file_path',
  'permission_scope',
  'verified',
  'etag',
  'content_size_bytes',
  'content_type',
  'content_last_modified',
  'blob_version',
  'upload_blob_version',
  'upload_etag',
  'upload_size_bytes',
  'upload_content_type',
  'upload_last_modified',
  'upload_expires_at',
  'created_at',
  'updated_at',
  'version',
  'custom_data',
  'links_generation',
  'blob_file_id',
  'expected_size_bytes',
  'expected_content_type',
  'expected_sha256',
  'upload_sha256',
  'content_sha256',
  'image_width',
  'image_height',
  'image_placeholder',
  'image_summary_due',
  'row_stamp',
  'version_id',
  'version_created_at',
  'version_created_by',
  'hold_reason',
  'held_at',
  'held_by',
] as const;

/** The columns migration 0035 (media-meta.ts) added to `files` and `trashed_files`. */
export const mediaMetaColumns = ['media_duration_ms', 'media_video_codec', 'media_audio_codec'] as const;

/** The columns migration 0036 (content-crc32.ts) added to `files` and `trashed_files`. */
export const contentCrc32Columns = ['content_crc32', 'upload_crc32'] as const;

/** The columns migration 0044 (file-quarantine.ts) added to `files` and `trashed_files`. */
export const quarantineColumns = ['quarantined_at', 'quarantine_signature', 'quarantine_version_id'] as const;
/** The columns migration 0043 (upload-scans.ts) added to `files` and `trashed_files`. */
export const uploadScanColumns = ['content_scan', 'upload_scan'] as const;
/** The column migration 0045 (upload-admissions.ts) added to `files` and `trashed_files`. */
export const uploadAdmissionColumns = ['upload_admission'] as const;

/**
 * The columns `trashed_files` mirrors from `files`: every column but the generated
 * `folder_path`. A trashed file is its row moved whole, so restoring it moves the row back
 * (repositories/trash/). A migration that adds a column to `files` adds it here and to
 * `trashed_files`: the type check below fails the build otherwise.
 */
export const mirroredFileColumns = [
  ...mirroredFileColumnsOf0034,
  ...mediaMetaColumns,
  ...contentCrc32Columns,
  ...quarantineColumns,
  ...uploadScanColumns,
  ...uploadAdmissionColumns,
] as const;

/** Every column of `files` but the generated one is mirrored (a type error names any left out). */
type UnmirroredColumn = Exclude<keyof FilesTable, (typeof mirroredFileColumns)[number] | 'folder_path'>;
export const everyFileColumnMirrored: [UnmirroredColumn] extends [never] ? true : UnmirroredColumn = true;

/** The columns `trashed_file_acl` mirrors from `file_acl`. */
export const mirroredAclColumns = [
  'file_id',
  'scope',
  'identifier',
  'position',
  'project_id',
  'file_created_at',
  'shared_at',
] as const;

/** The SQL type of each mirrored column, as `files` declares it (the initial schema and later migrations). */
export { mirroredFileColumnsOf0034 };

export const mirroredColumnTypes: Record<
  (typeof mirroredFileColumnsOf0034)[number],
  'text' | 'bigint' | 'integer'
> = {
  id: 'text',
  project_id: 'text',
  creator_id: 'text',
  file_path: 'text',
  permission_scope: 'text',
  verified: 'integer',
  etag: 'text',
  content_size_bytes: 'bigint',
  content_type: 'text',
  content_last_modified: 'bigint',
  blob_version: 'text',
  upload_blob_version: 'text',
  upload_etag: 'text',
  upload_size_bytes: 'bigint',
  upload_content_type: 'text',
  upload_last_modified: 'bigint',
  upload_expires_at: 'bigint',
  created_at: 'bigint',
  updated_at: 'bigint',
  version: 'integer',
  custom_data: 'text',
  links_generation: 'bigint',
  blob_file_id: 'text',
  expected_size_bytes: 'bigint',
  expected_content_type: 'text',
  expected_sha256: 'text',
  upload_sha256: 'text',
  content_sha256: 'text',
  image_width: 'integer',
  image_height: 'integer',
  image_placeholder: 'text',
  image_summary_due: 'integer',
  row_stamp: 'bigint',
  version_id: 'text',
  version_created_at: 'bigint',
  version_created_by: 'text',
  hold_reason: 'text',
  held_at: 'bigint',
  held_by: 'text',
};
