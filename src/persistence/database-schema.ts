/**
 * The tables as Kysely sees them: snake_case columns, portable types only. Timestamps are
 * Unix milliseconds in bigint columns, except files.upload_expires_at (Unix seconds, as on
 * the wire); booleans are integer 0/1. Repositories map rows to the camelCase port types.
 */
import type { Generated, GeneratedAlways } from 'kysely';
import type { ArchiveTables } from './archive-schema.ts';
import type {
  AccessEpochTable,
  AccountTokensTable,
  AppCredentialsTable,
  OAuthFlowsTable,
  OperatorSessionsTable,
  OperatorSignInLinksTable,
  OperatorsTable,
  RateLimitBucketsTable,
  RefreshTokenFamiliesTable,
  RefreshTokensTable,
  ServiceKeysTable,
  SigningKeysTable,
  UserIdentitiesTable,
} from './credential-schema.ts';
import type { MfaTables } from './mfa-schema.ts';
import type {
  EventsTable,
  MailOutboxTable,
  OutboxPositionsTable,
  OutboxTables,
  WebhookDeliveriesTable,
  WebhooksTable,
} from './outbox-schema.ts';
import type { PasskeyTables } from './passkey-schema.ts';
import type { RenditionRefusalsTable, RenditionsTable } from './rendition-schema.ts';
import type { FileVersionsTable, VersionUploadsTable } from './version-schema.ts';

export type {
  AccessEpochTable,
  AccountTokensTable,
  AppCredentialsTable,
  EventsTable,
  FileVersionsTable,
  MailOutboxTable,
  OAuthFlowsTable,
  OperatorSessionsTable,
  OperatorSignInLinksTable,
  OperatorsTable,
  OutboxPositionsTable,
  RateLimitBucketsTable,
  RefreshTokenFamiliesTable,
  RefreshTokensTable,
  RenditionRefusalsTable,
  RenditionsTable,
  ServiceKeysTable,
  SigningKeysTable,
  UserIdentitiesTable,
  VersionUploadsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
};

export type DatabaseSchema = ArchiveTables &
  MfaTables &
  OutboxTables &
  PasskeyTables & {
    projects: ProjectsTable;
    users: UsersTable;
    files: FilesTable;
    file_acl: FileAclTable;
    file_versions: FileVersionsTable;
    version_uploads: VersionUploadsTable;
    trashed_files: TrashedFilesTable;
    trashed_file_acl: TrashedFileAclTable;
    signing_keys: SigningKeysTable;
    rate_limit_buckets: RateLimitBucketsTable;
    access_epoch: AccessEpochTable;
    refresh_token_families: RefreshTokenFamiliesTable;
    refresh_tokens: RefreshTokensTable;
    app_credentials: AppCredentialsTable;
    service_keys: ServiceKeysTable;
    user_identities: UserIdentitiesTable;
    oauth_flows: OAuthFlowsTable;
    storage_usage: StorageUsageTable;
    folders: FoldersTable;
    folder_shares: FolderSharesTable;
    file_custom_values: FileCustomValuesTable;
    operators: OperatorsTable;
    operator_sessions: OperatorSessionsTable;
    operator_sign_in_links: OperatorSignInLinksTable;
    resumable_uploads: ResumableUploadsTable;
    renditions: RenditionsTable;
    rendition_refusals: RenditionRefusalsTable;
    account_tokens: AccountTokensTable;
  };

export type ProjectsTable = {
  id: string;
  name: string;
  /** The first app credential, copied into app_credentials (the one read); '' once revoked. */
  app_id: string;
  app_secret_hash: string;
  /** JSON array of origins, serialized with JSON.stringify (no spaces). */
  allowed_origins: string;
  admin_role: string;
  /** JSON object of ProjectSettings (domain/identity/project-settings.ts); '{}': all defaults. */
  settings: string;
  created_at: number;
};

export type UsersTable = {
  id: string;
  project_id: string;
  email: string;
  /** trim + lowercase: the unique key, so that login and EMAIL_TAKEN ignore case. */
  email_normalized: string;
  password_hash: string;
  role: string;
  display_name: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  version: number;
  /** When the address was shown to be the user's (a verification, reset or magic link); null: never. */
  email_verified_at: number | null;
};

export type FilesTable = {
  id: string;
  project_id: string;
  creator_id: string;
  file_path: string;
  permission_scope: string;
  verified: number;
  etag: string | null;
  content_size_bytes: number | null;
  content_type: string | null;
  content_last_modified: number | null;
  /** The version a verified file serves (pinned at verification). */
  blob_version: string | null;
  /** An unverified file's last committed upload: its version and what put() reported. */
  upload_blob_version: string | null;
  upload_etag: string | null;
  upload_size_bytes: number | null;
  upload_content_type: string | null;
  upload_last_modified: number | null;
  upload_expires_at: number;
  created_at: number;
  updated_at: number;
  version: number;
  /** JSON text of the file's customData; null when never set. */
  custom_data: string | null;
  /** Signed into download links; a revocation or an unshare adds one (migrations/file-links-generation.ts). */
  links_generation: number;
  /** A copy's source for its bytes (migrations/file-blob-sharing.ts); null: its own storage key. */
  blob_file_id: string | null;
  /** What the upload request declared (migrations/upload-contracts.ts); null: not declared. */
  expected_size_bytes: number | null;
  expected_content_type: string | null;
  /** base64 of the SHA-256 digest, as S3's x-amz-checksum-sha256. */
  expected_sha256: string | null;
  /** The pending upload's SHA-256 (base64) and the verified content's. */
  upload_sha256: string | null;
  content_sha256: string | null;
  /** What a verified image's header and summary told (migrations/renditions.ts); null: not an image, or not yet. */
  image_width: number | null;
  image_height: number | null;
  /** ThumbHash, base64. */
  image_placeholder: string | null;
  /** 1 while a verified image or video waits to be summarized. */
  image_summary_due: number;
  /** What a verified video's probe told (migrations/media-meta.ts); null: not a video, or not yet. */
  media_duration_ms: number | string | null;
  media_video_codec: string | null;
  media_audio_codec: string | null;
  /** The CRC-32 (uint32) of the current version's bytes and of the pending upload's (migrations/content-crc32.ts); null: not known yet. */
  content_crc32: number | null;
  upload_crc32: number | null;
  /** The scanner's verdict (JSON) on the current version's bytes and the pending upload's (migrations/upload-scans.ts). */
  content_scan: string | null;
  upload_scan: string | null;
  /** The admission hook's outcome (JSON) on the pending upload (migrations/upload-admissions.ts). */
  upload_admission: string | null;
  /** Moved by triggers on every change of the row or its ACL (migrations/file-row-stamp.ts). */
  row_stamp: Generated<number | string>;
  /** The file's folder: its path up to the last `/`, '' at the root (generated; migrations/folders.ts). */
  folder_path: GeneratedAlways<string>;
  /** The current version's id; null: the file's first version, whose id is the file's (migrations/versions-and-trash.ts). */
  version_id: string | null;
  /** When and by whom the current version was made; null: the first version (the file's creation and creator). */
  version_created_at: number | null;
  version_created_by: string | null;
  /** A project admin's legal hold: while set, the file cannot be deleted, replaced or moved. */
  hold_reason: string | null;
  held_at: number | null;
  held_by: string | null;
  /** While a re-scan's hit keeps the file's bytes from everyone (migrations/file-quarantine.ts): when (ms), what, in which version. */
  quarantined_at: number | null;
  quarantine_signature: string | null;
  quarantine_version_id: string | null;
};

/** A trashed file: its `files` row moved whole, with when, by whom and what it keeps stored. */
export type TrashedFilesTable = Omit<FilesTable, 'folder_path' | 'row_stamp'> & {
  row_stamp: number | string;
  trashed_at: number;
  trashed_by: string;
  /** Its content's bytes and its versions': what it keeps in the store, the trash's size. */
  held_bytes: number;
};

/** A trashed file's ACL, as file_acl held it. */
export type TrashedFileAclTable = Omit<FileAclTable, 'shared_at'> & { shared_at: number | string };

/** One owner's folder and its whole subtree's counts, kept by triggers (migrations/folders.ts). */
export type FoldersTable = {
  project_id: string;
  owner_id: string;
  /** `/`-ended; '' is the owner's root. */
  path: string;
  /** The folder holding this one; null for the root. */
  parent: string | null;
  file_count: number | string;
  total_bytes: number | string;
  updated_at: number | string;
};

export type FileAclTable = {
  file_id: string;
  scope: string;
  identifier: string;
  /** The file's version when the entry was added (the creator's entry: 0); orders the ACL. */
  position: number;
  /** The file's project and creation time (listing order; see migrations/acl-listing-keys.ts). */
  project_id: string;
  file_created_at: number;
  /** When the entry was added (ms; migrations/folder-shares.ts): "shared with me" order. */
  shared_at: Generated<number | string>;
};

/** One grantee of one owner's folder and everything under it (migrations/folder-shares.ts). */
export type FolderSharesTable = {
  project_id: string;
  owner_id: string;
  /** `/`-ended; '' is the owner's root. */
  path: string;
  scope: string;
  identifier: string;
  shared_at: number | string;
};

/** One top-level scalar of a file's customData, kept by triggers on files (migrations/search-indexes.ts). */
export type FileCustomValuesTable = {
  file_id: string;
  key: string;
  project_id: string;
  /** 's' string, 'b' boolean ('true'/'false' in value_text), 'n' number (value_number). */
  kind: string;
  value_text: string | null;
  value_number: number | null;
  created_at: number | string;
};

/** Files and bytes held, per user and per project (user_id ''), kept by triggers on files. */
export type StorageUsageTable = {
  project_id: string;
  user_id: string;
  files: number;
  bytes: number;
  /** What the owner's trash keeps stored (migrations/versions-and-trash.ts). */
  trash_bytes: Generated<number>;
};

/** Resumable uploads in progress (migrations/resumable-uploads.ts). */
export type ResumableUploadsTable = {
  id: string;
  project_id: string;
  file_id: string;
  creator_id: string;
  blob_version: string;
  length: number;
  /** Bytes the store has made durable (`offset` is a reserved word). */
  upload_offset: number;
  store_state: string | null;
  /** 'receiving' or 'committed'. */
  state: string;
  etag: string | null;
  lease_owner: string | null;
  /** Unix ms. */
  lease_until: number | null;
  /** The process holding the lease (lease-holder.ts); null for leases taken before 0029. */
  lease_holder: string | null;
  /** The running SHA-256's saved state (base64) at upload_offset; null when none was kept. */
  sha256_state: string | null;
  /** The running CRC-32 at upload_offset, saved with sha256_state; null when none was kept. */
  crc32_state: number | null;
  /** Unix ms. */
  expires_at: number;
  /** Unix ms. */
  created_at: number;
};
