import { accountOperations } from './account-operations.ts';
import { archiveOperations } from './archive-operations.ts';
import { auditOperations } from './audit-operations.ts';
import { dataPlaneOperations } from './data-plane-operations.ts';
import { folderChangeOperations } from './folder-change-operations.ts';
import { holdOperations } from './hold-operations.ts';
import { mfaOperations } from './mfa-operations.ts';
import { fileRead, type Operation } from './operation.ts';
import { ownAccountOperations } from './own-account-operations.ts';
import { passkeyOperations } from './passkey-operations.ts';
import { probeOperations } from './probe-operations.ts';
import { sessionOperations } from './session-operations.ts';
import { signInOperations } from './sign-in-operations.ts';
import { trashOperations } from './trash-operations.ts';
import { uploadOperations } from './upload-operations.ts';
import { versionOperations } from './version-operations.ts';
import { webhookOperations } from './webhook-operations.ts';

/**
 * Every route of both planes, by `METHOD url` as Fastify registers it. The OpenAPI document is
 * built from the routes' schemas plus this table; a route missing here fails the start (see
 * documentRoute), so the document cannot silently leave one out.
 */
export const operations: Record<string, Operation> = {
  'POST /api/v1/auth/login': {
    operationId: 'login',
    description:
      'Exchanges an email and a password for an access token (one hour) and a refresh token (30 days). Failed attempts are rate-limited.',
    access: 'app',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_LOGIN',
      'ACCOUNT_DISABLED',
      'EMAIL_NOT_VERIFIED',
      'RATE_LIMITED',
      'MFA_REQUIRED',
      'MFA_ENROLMENT_REQUIRED',
    ],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/signup': {
    operationId: 'signup',
    description:
      'Creates a user of the project with an email and a password, and answers as login does. A project may close signup (403 ACCESS_DENIED); passwords take 8 to 1024 characters and may not be common ones.',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'EMAIL_TAKEN', 'RATE_LIMITED', 'ACCESS_DENIED', 'MFA_ENROLMENT_REQUIRED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/signup/anonymous': {
    operationId: 'signupAnonymous',
    description:
      'Creates an account of role `anonymous`, with no email or password (no body), and answers as login does: it lives by its refresh token. Only where the project allows it (anonymousSignup=true), else 403 ACCESS_DENIED.',
    access: 'app',
    errors: ['ACCESS_DENIED', 'RATE_LIMITED', 'STORAGE_FULL'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/signup/anonymous/convert': {
    operationId: 'convertAnonymous',
    description:
      "Turns the caller's anonymous account into a member: the same userId (its files and shares stay), role `user`, this email and password. Signup's rules apply: the password policy, 409 EMAIL_TAKEN, 403 ACCESS_DENIED where signup is closed; 403 ACCESS_DENIED when the caller is not anonymous. The anonymous sessions end; answers as login does, with a new session.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'ACCESS_DENIED', 'EMAIL_TAKEN', 'RATE_LIMITED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/refresh': {
    operationId: 'refreshSession',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'INVALID_REFRESH_TOKEN', 'ACCOUNT_DISABLED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/logout': {
    operationId: 'logout',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED'],
    success: { status: 204, description: 'The session (its refresh-token family) is revoked' },
  },
  'POST /api/v1/auth/password': {
    operationId: 'changePassword',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'RATE_LIMITED'],
    success: { status: 204, description: "Changed; the user's other sessions are revoked" },
  },
  'GET /api/v1/user': {
    operationId: 'getProfile',
    description: 'The profile of the user the bearer token belongs to.',
    access: 'user',
    errors: [],
    success: { status: 200, component: 'UserProfile' },
  },
  'GET /api/v1/users': {
    operationId: 'findUser',
    description:
      "Looks a user of the project up by `email` (case-insensitive) and answers the profile, as GET /api/v1/user shows it; none is 404 USER_NOT_FOUND. Holders of the project's admin role only, else 403 ACCESS_DENIED.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'ACCESS_DENIED', 'USER_NOT_FOUND'],
    success: { status: 200, component: 'UserProfile' },
  },
  'POST /api/v1/file': {
    operationId: 'requestUpload',
    description:
      'Step 1 of an upload: creates the file record (unverified) and answers a signed upload link (putFileUrl) to PUT the bytes to (step 2), then verify with the ETag the PUT answers (step 3). Declare contentLength, contentType or checksumSha256 to hold the PUT to them; resumable: true also opens a tus upload (resumableUrl). A path the creator already holds is 409 FILE_EXISTS.',
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_FILE_PATH',
      'FILE_EXISTS',
      'FILE_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONTENT_TYPE_NOT_ALLOWED',
      'STORAGE_FULL',
      'FILE_QUARANTINED',
    ],
    success: { status: 200, component: 'UploadTicket' },
  },
  'POST /api/v1/file/:fileId/verify': {
    operationId: 'verifyUpload',
    description:
      "Step 3 of an upload: send the ETag the upload answered, quotes kept. The file becomes readable (file.uploaded). Only the creator and admins may verify. Where the server scans uploads (COFFER_SCAN_URL, the project's `scan`), the bytes are scanned first (a PUT's while it streamed; others read back once): 422 FILE_INFECTED with `details.signature` (the bytes deleted, file.infected), 503 SCANNER_UNAVAILABLE with Retry-After (nothing lost: verify again), 413 FILE_TOO_LARGE past the scanner's limit; a clean file's `meta.scan` records the verdict. Then the project's admission hook, if it has one (admissionUrl): 422 FILE_REJECTED with `details.reason` when it refuses (the bytes deleted, file.rejected), 503 ADMISSION_UNAVAILABLE with Retry-After when it gives no usable answer (nothing lost), its customData applied when it allows with some. A repeated verify answers the same outcome.",
    access: 'user',
    errors: [
      ...fileRead,
      'UPLOAD_MISSING',
      'ETAG_MISMATCH',
      'QUOTA_EXCEEDED',
      'STORAGE_FULL',
      'FILE_INFECTED',
      'SCANNER_UNAVAILABLE',
      'FILE_REJECTED',
      'ADMISSION_UNAVAILABLE',
      'FILE_TOO_LARGE',
    ],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/user/:userId': {
    operationId: 'shareWithUser',
    description:
      "Adds a user of the project, by id, to the file's ACL: that user may read the file. An id no user of the project has is 404 USER_NOT_FOUND. Only the creator and admins may share.",
    access: 'user',
    errors: [...fileRead, 'USER_NOT_FOUND', 'STORAGE_FULL', 'FILE_QUARANTINED'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/email/:email': {
    operationId: 'shareWithEmail',
    description:
      'Shares the file with the user of that email (case-insensitive, percent-encoded in the path; no body); the ACL names the user by id. Only the creator and admins may share.',
    access: 'user',
    errors: [...fileRead, 'USER_NOT_FOUND', 'RATE_LIMITED', 'STORAGE_FULL', 'FILE_QUARANTINED'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/role/:roleName': {
    operationId: 'shareWithRole',
    description:
      "Adds a role to the file's ACL: every user of the project holding that role may read the file. Roles are free-form. Only the creator and admins may share.",
    access: 'user',
    errors: [...fileRead, 'STORAGE_FULL', 'FILE_QUARANTINED'],
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/acl/user/:userId': {
    operationId: 'unshareWithUser',
    description:
      "Removes a user from the file's ACL; the download links handed out so far stop working. Removing a user the ACL does not name changes nothing.",
    access: 'user',
    errors: fileRead,
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/acl/role/:roleName': {
    operationId: 'unshareWithRole',
    description: "Removes a role from the file's ACL; the download links handed out so far stop working.",
    access: 'user',
    errors: fileRead,
    success: { status: 200, component: 'FileRecord' },
  },
  'GET /api/v1/file/:fileId': {
    operationId: 'getFile',
    description:
      "The file's record and a download link (`url`), valid for expiresInSeconds (default 900, at most 7 days). With rendition parameters (width, height, resize, format, quality, animated, posterAt, or a named rendition, beside which animated and posterAt may go) the link is to a rendition of the image instead (of a HEIC photo, the photo; of a video, a poster frame: at posterAt seconds, else 1 s or the first frame of a shorter clip). With `versionId`, the record of that version (its etag, meta and versionId) and a link to its bytes. A link names the version it was issued for: it keeps serving those bytes after the file gets new content, until it expires or the file's links are revoked. A quarantined file (a re-scan found malware in it) is 451 FILE_QUARANTINED, for admins too, until released.",
    access: 'user',
    errors: [
      ...fileRead,
      'FILE_NOT_VERIFIED',
      'UNSUPPORTED_MEDIA',
      'IMAGE_TOO_LARGE',
      'MEDIA_UNREADABLE',
      'RENDITIONS_DISABLED',
      'RATE_LIMITED',
      'VERSION_NOT_FOUND',
      'FILE_QUARANTINED',
    ],
    success: { status: 200, component: 'FileWithLink' },
  },
  'GET /api/v1/file': {
    operationId: 'listFiles',
    description:
      'Lists the files the caller may list, newest first; with any search parameter (name, contentType, ' +
      'customData.<key>, createdAfter, createdBefore, minSize, maxSize, sort, order, scope, cursor: issue 40) ' +
      'searches them at a bounded cost per page, answering `nextCursor` while more may follow (a page the ' +
      'examination budget cut short may hold fewer files than asked, even none). A search no index serves ' +
      'is refused with QUERY_TOO_BROAD.',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'QUERY_TOO_BROAD'],
    success: { status: 200, component: 'FilePage' },
  },
  'PATCH /api/v1/file/:fileId': {
    operationId: 'updateFile',
    description:
      "Replaces the file's customData whole (an object of at most 4096 bytes as JSON, 16 levels deep) and answers the record. Only the creator and admins.",
    access: 'user',
    errors: [...fileRead, 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/copy': {
    operationId: 'copyFile',
    description:
      'Makes a file of your own at filePath with the same bytes (none are copied): a new id and an ACL of you alone. Any reader of the file may copy it; the copy counts against quotas.',
    access: 'user',
    errors: [
      ...fileRead,
      'INVALID_FILE_PATH',
      'FILE_EXISTS',
      'FILE_NOT_VERIFIED',
      'FILE_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONTENT_TYPE_NOT_ALLOWED',
      'STORAGE_FULL',
    ],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/move': {
    operationId: 'moveFile',
    description: 'Gives the file another filePath; its id, ACL and links stay. Only the creator and admins.',
    access: 'user',
    errors: [...fileRead, 'INVALID_FILE_PATH', 'FILE_EXISTS', 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/links/revoke': {
    operationId: 'revokeLinks',
    description:
      'Every download link of the file handed out so far stops working (403 LINK_REVOKED); links asked for afterwards work at once. Only the creator and admins.',
    access: 'user',
    errors: fileRead,
    success: { status: 204, description: 'Every outstanding download link of the file stops working' },
  },
  'POST /api/v1/file/delete': {
    operationId: 'deleteFiles',
    description:
      'Deletes up to 100 files (fileIds) as DELETE /api/v1/file/{fileId} does each (to the trash while the project keeps one) and answers one outcome per id, in order: a file that cannot be deleted (409 FILE_ON_HOLD, 404, 403) does not stop the others.',
    access: 'user',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, component: 'DeleteOutcomes', description: 'One outcome per id, in order' },
  },
  'DELETE /api/v1/file/:fileId': {
    operationId: 'deleteFile',
    description:
      "Deletes the file: while the project keeps a trash (trashRetentionDays > 0) a verified file goes to its owner's trash (GET /api/v1/trash), else its record, ACL and bytes go. Either way it leaves listings and folders, reads answer 404, its links stop and its path is free. A held file: 409 FILE_ON_HOLD. Events: file.trashed and file.deleted (or file.deleted alone).",
    access: 'user',
    errors: [...fileRead, 'FILE_ON_HOLD'],
    success: { status: 204, description: 'Deleted (or trashed)' },
  },
  'GET /api/v1/folders': {
    operationId: 'browseFolder',
    description:
      "A folder of one owner (`owner`, default the caller): its direct subfolders with the file count and bytes of each one's whole subtree (kept in each change's commit, never counted at read time), and a page of its direct files as the listing shows them (follow nextCursor). A folder exists while a file is under it; the caller's own root always answers. Another owner's folders: the project's admins only; anyone else gets 404 FOLDER_NOT_FOUND, as for a folder that does not exist.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_FILE_PATH', 'FOLDER_NOT_FOUND'],
    success: { status: 200, component: 'FolderPage' },
  },
  ...folderChangeOperations,
  ...versionOperations,
  ...trashOperations,
  ...archiveOperations,
  ...sessionOperations,
  ...signInOperations,
  ...passkeyOperations,
  ...mfaOperations,
  ...dataPlaneOperations,
  ...uploadOperations,
  ...accountOperations,
  ...ownAccountOperations,
  ...webhookOperations,
  'GET /api/v1/events': {
    operationId: 'streamEvents',
    description:
      'Server-Sent Events of the files the caller may read, as they happen. After a broken connection, reconnect with Last-Event-ID to replay what was missed.',
    access: 'user',
    errors: ['VALIDATION_FAILED'],
    success: {
      status: 200,
      description:
        'Server-Sent Events: each event of a file the caller may read when it is sent, as `id` (send it back as Last-Event-ID to replay what was missed), `event` (its type) and `data` ({type, timestamp, data}, as a webhook body); comment lines as heartbeats',
    },
  },
  ...auditOperations,
  ...holdOperations,
  ...probeOperations,
};
