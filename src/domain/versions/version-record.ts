import type { FileRecord } from '../files/file-record.ts';
import type { FileVersion } from './file-version.ts';

/**
 * The record of an earlier version (GET /api/v1/file/:id?versionId=): the file as it is (id,
 * path, ACL, customData), with that version's content, ETag and bytes. Its image summary is the
 * current bytes', so none is shown.
 */
export function toVersionRecord(file: FileRecord, version: FileVersion): FileRecord {
  return {
    ...file,
    etag: version.etag,
    content: version.content,
    blobVersion: version.blobVersion,
    blobFileId: version.blobFileId === file.id ? null : version.blobFileId,
    contentVersion: { id: version.versionId, createdAt: version.createdAt, createdBy: version.createdBy },
    image: null,
  };
}
