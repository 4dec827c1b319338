import { etagHeader, storedContent, uploadBody } from './content-shapes.ts';
import { fileRead, type Operation } from './operation.ts';

/** A file's versions (issue 38): new content under the same id, and its earlier versions. */
export const versionOperations: Record<string, Operation> = {
  'POST /api/v1/file/:fileId/versions': {
    operationId: 'requestVersion',
    description:
      "New content for a verified file (the creator or an admin), answered like an upload request: PUT the bytes to putFileUrl, then POST their ETag to postVerifyUploadUrl. The declared contentLength, contentType and checksumSha256 bind the upload, and the project's size, types and quotas apply, as for a new file. With `resumable: true` (and contentLength) the answer also has resumableUrl, a tus 1.0 upload of the bytes whose last PATCH answers the ETag to verify with. A held file is 409 FILE_ON_HOLD.",
    access: 'user',
    errors: [
      ...fileRead,
      'FILE_NOT_VERIFIED',
      'FILE_ON_HOLD',
      'FILE_TOO_LARGE',
      'CONTENT_TYPE_NOT_ALLOWED',
      'QUOTA_EXCEEDED',
    ],
    success: { status: 200, description: "The new version's id and its signed upload link" },
  },
  'POST /api/v1/file/:fileId/versions/:versionId/verify': {
    operationId: 'verifyVersion',
    description:
      "Makes the uploaded bytes the file's current version, in one commit: the id, path, ACL, folder shares and customData stay; `__v` grows; etag, meta and versionId are the new content's. The content it replaces becomes an earlier version; those beyond the project's versionsKept are removed. Repeating a verify that succeeded answers the same record. The bytes are scanned as a new file's are (422 FILE_INFECTED, 503 SCANNER_UNAVAILABLE, 413 FILE_TOO_LARGE), then put to the project's admission hook (422 FILE_REJECTED, 503 ADMISSION_UNAVAILABLE). Event: file.version_added.",
    access: 'user',
    errors: [
      ...fileRead,
      'UPLOAD_NOT_FOUND',
      'UPLOAD_MISSING',
      'ETAG_MISMATCH',
      'FILE_ON_HOLD',
      'QUOTA_EXCEEDED',
      'FILE_INFECTED',
      'SCANNER_UNAVAILABLE',
      'FILE_REJECTED',
      'ADMISSION_UNAVAILABLE',
      'FILE_TOO_LARGE',
    ],
    success: { status: 200, component: 'FileRecord' },
  },
  'GET /api/v1/file/:fileId/versions': {
    operationId: 'listVersions',
    description:
      'The current version, then the earlier ones, newest first (at most versionsKept of them, each for at most versionRetentionDays after it was replaced). Anyone who may read the file may list them, and read one with GET /api/v1/file/{fileId}?versionId=.',
    access: 'user',
    errors: fileRead,
    success: { status: 200, description: 'The versions, current first' },
  },
  'POST /api/v1/file/:fileId/versions/:versionId/restore': {
    operationId: 'restoreVersion',
    description:
      "Makes an earlier version's bytes the current content again, as a new version (nothing is copied; the earlier version stays). The creator or an admin; its bytes count against the quotas again. Restoring the current version changes nothing. Event: file.version_restored.",
    access: 'user',
    errors: [...fileRead, 'VERSION_NOT_FOUND', 'FILE_ON_HOLD', 'QUOTA_EXCEEDED', 'CONTENT_TYPE_NOT_ALLOWED'],
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/versions/:versionId': {
    operationId: 'deleteVersion',
    description:
      'Removes an earlier version (the creator or an admin): its links stop, its bytes go unless the current version or another one shares them. The current version cannot be deleted (400). Event: file.version_deleted.',
    access: 'user',
    errors: [...fileRead, 'VERSION_NOT_FOUND', 'FILE_ON_HOLD'],
    success: { status: 204, description: 'The version is gone' },
  },
  'PUT /blob/v1/versions/:fileId': {
    operationId: 'uploadVersionContent',
    description:
      "Step 2 of a new version's upload (putFileUrl of POST /api/v1/file/{fileId}/versions): the whole content in one PUT, raw or as a multipart form's `data` part, under the same rules as a new file's upload. Answers the ETag to verify with.",
    summary: "Upload a new version's content to its signed upload link",
    access: 'link',
    errors: [
      'VALIDATION_FAILED',
      'UPLOAD_NOT_FOUND',
      'CONTENT_MISMATCH',
      'CONTENT_TYPE_NOT_ALLOWED',
      'QUOTA_EXCEEDED',
      'FILE_TOO_LARGE',
      'REQUEST_TIMEOUT',
      'STORAGE_FULL',
    ],
    requestBody: uploadBody,
    success: {
      status: 200,
      component: 'StoredContent',
      schema: storedContent,
      description: 'Stored: the ETag (header and body) is what verify wants back',
      headers: { ETag: etagHeader },
    },
  },
};
