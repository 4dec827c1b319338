/** A file's record as the domain sees it (spec 2.1): its ACL, content, upload state and links generation. */
import type { ScanRecord } from '../admission/scan-record.ts';
import type { CustomData } from './custom-data.ts';

export type AclScope = 'user' | 'role';
export type AclEntry = { scope: AclScope; identifier: string };
/** A share of one of the file's folders (issue 36): it reaches every file under `path`. */
export type FolderAclEntry = AclEntry & { path: string };
export type PermissionScope = 'user' | '*';

/** Storage metadata recorded at verification (spec 2.1 `meta`). */
export type FileContentInfo = {
  sizeBytes: number;
  contentType: string;
  lastModified: Date;
  /** base64 of the SHA-256 digest of the bytes; null when not known (direct uploads without one declared). */
  checksumSha256?: string | null;
};

/**
 * The bytes a PUT stored for a file that is not verified yet: the version verify will pin
 * (the last PUT to commit before verify wins).
 */
export type PendingUpload = {
  blobVersion: string;
  etag: string;
  sizeBytes: number;
  contentType: string;
  lastModified: Date;
  /** base64 of the SHA-256 digest, computed while the bytes streamed. */
  checksumSha256?: string | null;
  /** The CRC-32 (uint32) of the bytes, computed while they streamed; null: not known. */
  crc32?: number | null;
  /** The malware scanner's verdict on these bytes (issue 42), once reached; null: not yet, or not scanned. */
  scan?: ScanRecord | null;
};

/** The content a pinned upload gives the record or version it becomes (its checksum, or null). */
export function toPinnedContent(pinned: PendingUpload) {
  const { sizeBytes, contentType, lastModified } = pinned;
  return { sizeBytes, contentType, lastModified, checksumSha256: pinned.checksumSha256 ?? null };
}

/**
 * What an upload request declared about the bytes to come (issue 10, item 6); the gateway
 * refuses a body that differs (CONTENT_MISMATCH). Null: not declared.
 */
export type UploadContract = {
  sizeBytes: number | null;
  contentType: string | null;
  /** base64 of the SHA-256 digest, as S3's x-amz-checksum-sha256. */
  checksumSha256: string | null;
};

export type FileRecord = {
  id: string;
  projectId: string;
  creatorId: string;
  filePath: string;
  permissionScope: PermissionScope;
  verified: boolean;
  /** Quoted entity tag, set at verification. */
  etag: string | null;
  content: FileContentInfo | null;
  /**
   * The CRC-32 (uint32) of the content's bytes (issue 40: a ZIP entry's), recorded as they
   * streamed through Coffer; null when they did not (direct S3 uploads, files from before
   * migration 0036) until computed on first use (content-crc.ts).
   */
  contentCrc32: number | null;
  /**
   * The immutable blob version a verified file serves, pinned at verification: a later PUT
   * writes another version and can never change what a verified record describes.
   */
  blobVersion: string | null;
  /** Unverified files: the last upload committed, if any. */
  pendingUpload: PendingUpload | null;
  /** Unix seconds after which the upload link no longer works. */
  uploadExpiresAt: number;
  /** In insertion order, the creator first. */
  acl: AclEntry[];
  /**
   * The shares of the folders holding the file (its owner's, ancestors first): read as `acl`
   * is, in the same decision. A file moved out of a shared folder leaves them; one moved in gains them.
   */
  folderAcl: FolderAclEntry[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** The app's own JSON object (at most 4 KiB); null when never set. */
  customData: CustomData | null;
  /**
   * Signed into every download link; revoking links or removing an ACL entry adds one, and
   * links of an older generation stop (docs/security.md, "Revoking links").
   */
  linksGeneration: number;
  /**
   * A copy serves its source's bytes: the file whose storage key holds blobVersion (null: this
   * one). Versions never change, so sharing them is safe; the last record naming one removes it.
   */
  blobFileId: string | null;
  /** What the upload request declared. */
  declared: UploadContract;
  /** A verified image's dimensions and placeholder (issue 21), once summarized; else null. */
  image: ImageMeta | null;
  /**
   * The version whose content this record describes (issue 38): the current one, except in a
   * record of an earlier version (GET ?versionId=). Its id is the file's own for the first version.
   */
  contentVersion: { id: string; createdAt: Date; createdBy: string };
  /** A project admin's legal hold (issue 38): no delete, purge, replace or move while set. */
  hold: FileHold | null;
  /** Set while a re-scan's hit keeps the file's bytes from everyone (issue 42, item 2); else null. */
  quarantine: FileQuarantineState | null;
  /** The malware scanner's verdict on the content's bytes (issue 42, `meta.scan`); null: not scanned. */
  scan: ScanRecord | null;
};

export type FileHold = { reason: string; heldAt: Date; heldBy: string };

/** What a re-scan found: the scanner's signature name, when, and in which of the file's versions. */
export type FileQuarantineState = { signature: string; quarantinedAt: Date; versionId: string };

/** What a verified image tells of itself: shown in `meta` (width, height, placeholder). */
export type ImageMeta = {
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  /** A ThumbHash (base64) a page can paint before the image arrives; null when none could be made. */
  placeholder: string | null;
  /** A video's probe (issue 39): absent for a still image. */
  video?: VideoMeta;
};

/** What a verified video tells of itself, beside its frame's width and height. */
export type VideoMeta = {
  durationSeconds: number;
  /** ffprobe's codec names: `h264`, `hevc`, `vp9`, `av1`, …; the audio's null when there is none. */
  videoCodec: string;
  audioCodec: string | null;
};

export type NewFile = Pick<
  FileRecord,
  'id' | 'projectId' | 'creatorId' | 'filePath' | 'permissionScope' | 'uploadExpiresAt'
> & { customData?: CustomData | null; declared?: UploadContract };
