import type { Generated } from 'kysely';

// The tables of files' earlier versions and of new versions on their way (issue 38), as
// Kysely sees them; re-exported by database-schema.ts.

/** A file's non-current versions (migrations/versions-and-trash.ts). */
export type FileVersionsTable = {
  file_id: string;
  version_id: string;
  project_id: string;
  /** The file's owner: whose quota the version's bytes count against. */
  creator_id: string;
  /** The storage key's file id (`<project>/<blob_file_id>`) that holds blob_version. */
  blob_file_id: string;
  blob_version: string;
  etag: string;
  size_bytes: number;
  content_type: string;
  content_last_modified: number;
  content_sha256: string | null;
  /** The CRC-32 of the bytes (migrations/content-crc32.ts); null: not known yet. */
  content_crc32: number | null;
  /** The scanner's verdict (JSON, migrations/upload-scans.ts); null: not scanned. */
  content_scan: string | null;
  created_at: number;
  created_by: string;
  /** When another version became current (the retention counts from here). */
  noncurrent_at: number;
  /** 0 while the file is in the trash (its bytes then count in the trash, not the quota). */
  counted: Generated<number>;
};

/** A new version on its way: requested, maybe uploaded, not verified yet. */
export type VersionUploadsTable = {
  /** The version's id once verified; its bytes live under `<project>/<id>`. */
  id: string;
  file_id: string;
  project_id: string;
  creator_id: string;
  requested_by: string;
  /** Unix seconds: the upload link's end; the sweep removes the row after it. */
  expires_at: number;
  expected_size_bytes: number | null;
  expected_content_type: string | null;
  expected_sha256: string | null;
  upload_blob_version: string | null;
  upload_etag: string | null;
  upload_size_bytes: number | null;
  upload_content_type: string | null;
  upload_last_modified: number | null;
  upload_sha256: string | null;
  upload_crc32: number | null;
  /** The scanner's verdict (JSON) on the pending bytes (migrations/upload-scans.ts). */
  upload_scan: string | null;
  /** The admission hook's outcome (JSON) on the pending bytes (migrations/upload-admissions.ts). */
  upload_admission: string | null;
  created_at: number;
};
