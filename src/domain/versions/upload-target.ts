import type { FileRecord } from '../files/file-record.ts';
import type { VersionUpload } from './file-version.ts';

/**
 * A version upload seen as the record an upload goes to (issue 38): the file's path and type
 * rules, the upload's own id, contract and pending bytes, its own storage key
 * (`<project>/<upload id>`). The upload checks written for new files (check-upload-body.ts,
 * adopt-direct-upload.ts) then apply to a new version unchanged.
 */
export function toUploadTarget(file: FileRecord, upload: VersionUpload): FileRecord {
  return {
    ...file,
    id: upload.id,
    blobFileId: null,
    verified: false,
    etag: null,
    content: null,
    blobVersion: null,
    declared: upload.declared,
    pendingUpload: upload.pendingUpload,
    uploadExpiresAt: upload.expiresAt,
  };
}
