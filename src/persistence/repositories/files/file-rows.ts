import type { Kysely, Selectable } from 'kysely';
import { toScanRecord } from '../../../domain/admission/scan-record.ts';
import type { CustomData } from '../../../domain/files/custom-data.ts';
import type {
  AclEntry,
  AclScope,
  FileRecord,
  FolderAclEntry,
  ImageMeta,
  PendingUpload,
  PermissionScope,
  VideoMeta,
} from '../../../domain/files/file-record.ts';
import type { DatabaseSchema, FilesTable } from '../../database-schema.ts';
import { findFolderAcls } from './folder-acl-rows.ts';

/** A file's row as records are made from it (the row stamp is the view cache's, not the record's). */
export type FileRow = Omit<Selectable<FilesTable>, 'row_stamp' | 'folder_path'>;

/**
 * The hot path (every read, download and link check): one indexed query, the file row joined
 * with its ACL in insertion order. One statement also means one consistent snapshot, so the
 * version and the ACL always belong together.
 */
export async function findFileById(db: Kysely<DatabaseSchema>, id: string): Promise<FileRecord | undefined> {
  return withFolderAcl(db, await selectFileWithAcl(db, id).execute());
}

/**
 * The record of findFileById's rows, with its folder shares (issue 36): a second read of a few
 * primary-key points (the file's folders), made only when the row is read whole.
 */
export async function withFolderAcl(
  db: Kysely<DatabaseSchema>,
  rows: Array<FileRow & { scope: string | null; identifier: string | null }>,
): Promise<FileRecord | undefined> {
  const first = rows[0];
  if (first === undefined) return undefined;
  const folderAcls = await findFolderAcls(db, [first]);
  return toFileWithAcl(rows, folderAcls.get(first.id) ?? []);
}

/** The query of findFileById: one row per ACL entry (or one with null entry fields). */
export function selectFileWithAcl(db: Kysely<DatabaseSchema>, id: string) {
  return db
    .selectFrom('files')
    .leftJoin('file_acl', 'file_acl.file_id', 'files.id')
    .selectAll('files')
    .select(['file_acl.scope', 'file_acl.identifier'])
    .where('files.id', '=', id)
    .orderBy('file_acl.position');
}

export function toFileWithAcl(
  rows: Array<FileRow & { scope: string | null; identifier: string | null }>,
  folderAcl: FolderAclEntry[],
): FileRecord | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const acl = rows.flatMap((row) =>
    row.scope === null || row.identifier === null ? [] : [toAclEntry(row.scope, row.identifier)],
  );
  return toFileRecord(first, acl, folderAcl);
}

/** A page of file rows as records: their ACLs and folder shares in two queries. */
export async function toFileRecords(
  db: Kysely<DatabaseSchema>,
  rows: readonly FileRow[],
): Promise<FileRecord[]> {
  const [acls, folderAcls] = await Promise.all([
    findAclsByFileIds(
      db,
      rows.map((row) => row.id),
    ),
    findFolderAcls(db, rows),
  ]);
  return rows.map((row) => toFileRecord(row, acls.get(row.id) ?? [], folderAcls.get(row.id) ?? []));
}

/** The ACLs of many files in one query, each in insertion order. */
export async function findAclsByFileIds(
  db: Kysely<DatabaseSchema>,
  fileIds: readonly string[],
): Promise<Map<string, AclEntry[]>> {
  const acls = new Map<string, AclEntry[]>(fileIds.map((id) => [id, []]));
  if (fileIds.length === 0) return acls;
  const rows = await db
    .selectFrom('file_acl')
    .select(['file_id', 'scope', 'identifier'])
    .where('file_id', 'in', fileIds)
    .orderBy('file_id')
    .orderBy('position')
    .execute();
  for (const row of rows) acls.get(row.file_id)?.push(toAclEntry(row.scope, row.identifier));
  return acls;
}

export function toFileRecord(row: FileRow, acl: AclEntry[], folderAcl: FolderAclEntry[]): FileRecord {
  const hasContent =
    row.content_size_bytes !== null && row.content_type !== null && row.content_last_modified !== null;
  return {
    id: row.id,
    projectId: row.project_id,
    creatorId: row.creator_id,
    filePath: row.file_path,
    permissionScope: row.permission_scope as PermissionScope,
    verified: row.verified === 1,
    etag: row.etag,
    content: hasContent
      ? {
          sizeBytes: row.content_size_bytes!,
          contentType: row.content_type!,
          lastModified: new Date(row.content_last_modified!),
          checksumSha256: row.content_sha256,
        }
      : null,
    contentCrc32: row.content_crc32 === null ? null : Number(row.content_crc32),
    blobVersion: row.blob_version,
    pendingUpload: toPendingUpload(row),
    uploadExpiresAt: row.upload_expires_at,
    acl,
    folderAcl,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: row.version,
    customData: row.custom_data === null ? null : (JSON.parse(row.custom_data) as CustomData),
    linksGeneration: row.links_generation,
    blobFileId: row.blob_file_id,
    declared: {
      sizeBytes: row.expected_size_bytes === null ? null : Number(row.expected_size_bytes),
      contentType: row.expected_content_type,
      checksumSha256: row.expected_sha256,
    },
    image: toImageMeta(row),
    contentVersion: {
      id: row.version_id ?? row.id,
      createdAt: new Date(row.version_created_at ?? row.created_at),
      createdBy: row.version_created_by ?? row.creator_id,
    },
    hold:
      row.hold_reason === null
        ? null
        : { reason: row.hold_reason, heldAt: new Date(row.held_at ?? 0), heldBy: row.held_by ?? '' },
    quarantine:
      row.quarantined_at === null
        ? null
        : {
            signature: row.quarantine_signature ?? '',
            quarantinedAt: new Date(Number(row.quarantined_at)),
            versionId: row.quarantine_version_id ?? row.id,
          },
    scan: toScanRecord(row.content_scan),
  };
}

function toPendingUpload(row: FileRow): PendingUpload | null {
  const { upload_blob_version, upload_etag, upload_size_bytes, upload_content_type, upload_last_modified } =
    row;
  if (
    upload_blob_version === null ||
    upload_etag === null ||
    upload_size_bytes === null ||
    upload_content_type === null ||
    upload_last_modified === null
  )
    return null;
  return {
    blobVersion: upload_blob_version,
    etag: upload_etag,
    sizeBytes: upload_size_bytes,
    contentType: upload_content_type,
    lastModified: new Date(upload_last_modified),
    checksumSha256: row.upload_sha256,
    crc32: row.upload_crc32 === null ? null : Number(row.upload_crc32),
    // Only when scanned (issue 42): a pending upload without a verdict reads as it always did.
    ...(row.upload_scan !== null && { scan: toScanRecord(row.upload_scan) }),
  };
}

export function toAclEntry(scope: string, identifier: string): AclEntry {
  return { scope: scope as AclScope, identifier };
}

/** The summary columns as `meta` shows them: a video's probe beside its frame's size (issue 39). */
function toImageMeta(row: FileRow): ImageMeta | null {
  if (row.image_width === null || row.image_height === null) return null;
  const image: ImageMeta = {
    width: row.image_width,
    height: row.image_height,
    placeholder: row.image_placeholder,
  };
  if (row.media_video_codec === null) return image;
  const video: VideoMeta = {
    durationSeconds: Number(row.media_duration_ms ?? 0) / 1000,
    videoCodec: row.media_video_codec,
    audioCodec: row.media_audio_codec,
  };
  return { ...image, video };
}
