import type { ErrorCode } from '../../errors/error-codes.ts';

/**
 * Who may call an operation, which decides its security alternatives and barrier errors:
 * - `public`: nobody needs anything (probes, the reference);
 * - `app`: app credentials (id + secret, or id + an allowed browser origin);
 * - `user`: app credentials and a user's bearer token;
 * - `link`: a signed link (its query string is the credential);
 * - `metrics`: `COFFER_METRICS_TOKEN` as a bearer token, or a direct loopback client.
 */
export type Access = 'public' | 'app' | 'user' | 'link' | 'metrics';

export type Operation = {
  operationId: string;
  /** For routes whose schema has none (the data plane, the probes). */
  summary?: string;
  access: Access;
  /** What the operation itself may answer, beyond its barriers' and every request's errors. */
  errors: ErrorCode[];
  /** The 2xx status and the component its answer is (the document names and references it). */
  success?: { status: 200 | 201 | 204 | 206; component?: string; description?: string };
};

const fileRead: ErrorCode[] = ['VALIDATION_FAILED', 'ACCESS_DENIED', 'FILE_NOT_FOUND'];

const tusErrors: ErrorCode[] = ['UPLOAD_NOT_FOUND', 'TUS_VERSION_UNSUPPORTED'];
const chunkErrors: ErrorCode[] = [
  ...tusErrors,
  'VALIDATION_FAILED',
  'UPLOAD_OFFSET_CONFLICT',
  'UPLOAD_LOCKED',
  'CHECKSUM_MISMATCH',
  'UNSUPPORTED_MEDIA_TYPE',
  'CONTENT_MISMATCH',
  'CONTENT_TYPE_NOT_ALLOWED',
  'QUOTA_EXCEEDED',
  'ALREADY_VERIFIED',
  'STORAGE_FULL',
];

/** A resumable upload's URL (tus 1.0; issue 20): the signed query string is the credential. */
const resumableOperations: Record<string, Operation> = {
  'HEAD /blob/v1/uploads/:uploadId': {
    operationId: 'getResumableUploadOffset',
    summary:
      'A resumable upload: Upload-Offset (bytes kept), Upload-Length, Upload-Expires, and ETag once committed',
    access: 'link',
    errors: tusErrors,
    success: { status: 200, description: 'The upload status in headers, never cached' },
  },
  'PATCH /blob/v1/uploads/:uploadId': {
    operationId: 'appendResumableUpload',
    summary:
      'Append a chunk (application/offset+octet-stream) at Upload-Offset, optionally with Upload-Checksum (sha1 or sha256); the chunk that reaches Upload-Length commits the upload and answers its ETag',
    access: 'link',
    errors: chunkErrors,
    success: {
      status: 204,
      description: 'Kept: the new Upload-Offset (and the ETag for verify once complete)',
    },
  },
  'DELETE /blob/v1/uploads/:uploadId': {
    operationId: 'terminateResumableUpload',
    summary: 'Terminate an unfinished resumable upload: its bytes, and its never-uploaded file record, go',
    access: 'link',
    errors: [...tusErrors, 'UPLOAD_FINISHED', 'UPLOAD_LOCKED'],
    success: { status: 204, description: 'Terminated' },
  },
  'POST /blob/v1/uploads/:uploadId': {
    operationId: 'overrideResumableUpload',
    summary:
      'A PATCH, HEAD or DELETE named by X-HTTP-Method-Override (tus, for networks that pass only GET and POST)',
    access: 'link',
    errors: [...chunkErrors, 'UPLOAD_FINISHED'],
    success: { status: 204, description: 'As the method it stands for' },
  },
};

/**
 * Every route of both planes, by `METHOD url` as Fastify registers it. The OpenAPI document is
 * built from the routes' schemas plus this table; a route missing here fails the start (see
 * documentRoute), so the document cannot silently leave one out.
 */
export const operations: Record<string, Operation> = {
  'POST /api/v1/auth/login': {
    operationId: 'login',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'ACCOUNT_DISABLED', 'RATE_LIMITED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/signup': {
    operationId: 'signup',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'EMAIL_TAKEN', 'RATE_LIMITED', 'ACCESS_DENIED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/auth/signup/anonymous': {
    operationId: 'signupAnonymous',
    access: 'app',
    errors: ['ACCESS_DENIED', 'RATE_LIMITED', 'STORAGE_FULL'],
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
    errors: ['VALIDATION_FAILED'],
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
    access: 'user',
    errors: [],
    success: { status: 200, component: 'UserProfile' },
  },
  'GET /api/v1/users': {
    operationId: 'findUser',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'ACCESS_DENIED', 'USER_NOT_FOUND'],
    success: { status: 200, component: 'UserProfile' },
  },
  'POST /api/v1/file': {
    operationId: 'requestUpload',
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_FILE_PATH',
      'FILE_EXISTS',
      'FILE_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONTENT_TYPE_NOT_ALLOWED',
      'STORAGE_FULL',
    ],
    success: { status: 200, component: 'UploadTicket' },
  },
  'POST /api/v1/file/:fileId/verify': {
    operationId: 'verifyUpload',
    access: 'user',
    errors: [...fileRead, 'UPLOAD_MISSING', 'ETAG_MISMATCH', 'QUOTA_EXCEEDED', 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/user/:userId': {
    operationId: 'shareWithUser',
    access: 'user',
    errors: [...fileRead, 'USER_NOT_FOUND', 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/email/:email': {
    operationId: 'shareWithEmail',
    access: 'user',
    errors: [...fileRead, 'USER_NOT_FOUND', 'RATE_LIMITED', 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/acl/role/:roleName': {
    operationId: 'shareWithRole',
    access: 'user',
    errors: [...fileRead, 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/acl/user/:userId': {
    operationId: 'unshareWithUser',
    access: 'user',
    errors: fileRead,
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/acl/role/:roleName': {
    operationId: 'unshareWithRole',
    access: 'user',
    errors: fileRead,
    success: { status: 200, component: 'FileRecord' },
  },
  'GET /api/v1/file/:fileId': {
    operationId: 'getFile',
    access: 'user',
    errors: [...fileRead, 'FILE_NOT_VERIFIED'],
    success: { status: 200, component: 'FileWithLink' },
  },
  'GET /api/v1/file': {
    operationId: 'listFiles',
    access: 'user',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, component: 'FilePage' },
  },
  'PATCH /api/v1/file/:fileId': {
    operationId: 'updateFile',
    access: 'user',
    errors: [...fileRead, 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/copy': {
    operationId: 'copyFile',
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
    access: 'user',
    errors: [...fileRead, 'INVALID_FILE_PATH', 'FILE_EXISTS', 'STORAGE_FULL'],
    success: { status: 200, component: 'FileRecord' },
  },
  'POST /api/v1/file/:fileId/links/revoke': {
    operationId: 'revokeLinks',
    access: 'user',
    errors: fileRead,
    success: { status: 204, description: 'Every outstanding download link of the file stops working' },
  },
  'POST /api/v1/file/delete': {
    operationId: 'deleteFiles',
    access: 'user',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, component: 'DeleteOutcomes', description: 'One outcome per id, in order' },
  },
  'DELETE /api/v1/file/:fileId': {
    operationId: 'deleteFile',
    access: 'user',
    errors: fileRead,
    success: { status: 204, description: 'Deleted: the record, its ACL and its bytes' },
  },
  'PUT /blob/v1/files/:fileId': {
    operationId: 'uploadContent',
    summary: "Upload a file's content to its signed upload link (raw body or multipart `data` part)",
    access: 'link',
    errors: [
      'VALIDATION_FAILED',
      'FILE_NOT_FOUND',
      'ALREADY_VERIFIED',
      'CONTENT_MISMATCH',
      'CONTENT_TYPE_NOT_ALLOWED',
      'QUOTA_EXCEEDED',
      'FILE_TOO_LARGE',
      'REQUEST_TIMEOUT',
      'STORAGE_FULL',
    ],
    success: { status: 200, component: 'StoredContent' },
  },
  'GET /blob/v1/files/:fileId': {
    operationId: 'downloadContent',
    summary: "Download a verified file's content through its signed link",
    access: 'link',
    errors: ['FILE_NOT_FOUND', 'FILE_NOT_VERIFIED', 'LINK_REVOKED', 'RANGE_NOT_SATISFIABLE'],
    success: { status: 200, description: 'The bytes (206 with a Range header: the part asked for)' },
  },
  'HEAD /blob/v1/files/:fileId': {
    operationId: 'headContent',
    summary: "The download's headers (size, type, ETag) without the content",
    access: 'link',
    errors: ['FILE_NOT_FOUND', 'FILE_NOT_VERIFIED', 'LINK_REVOKED'],
    success: { status: 200, description: 'The headers of the download, without the bytes' },
  },
  'POST /api/v1/uploads': {
    operationId: 'createResumableUpload',
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'TUS_VERSION_UNSUPPORTED',
      'INVALID_FILE_PATH',
      'FILE_EXISTS',
      'FILE_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONTENT_TYPE_NOT_ALLOWED',
      'CONTENT_MISMATCH',
      'CHECKSUM_MISMATCH',
      'UNSUPPORTED_MEDIA_TYPE',
      'STORAGE_FULL',
    ],
    success: {
      status: 201,
      description:
        'Created: Location is the upload URL (tus), Coffer-File-Id the file record, Upload-Offset the bytes kept of a creation-with-upload',
    },
  },
  ...resumableOperations,
  'GET /healthz': {
    operationId: 'health',
    summary: 'Liveness: the process serves',
    access: 'public',
    errors: [],
    success: { status: 200, description: 'The process serves' },
  },
  'GET /readyz': {
    operationId: 'ready',
    summary: 'Readiness: the stores answer and take writes',
    access: 'public',
    errors: [],
    success: { status: 200, description: 'The database and the blob store answer and take writes' },
  },
  'GET /metrics': {
    operationId: 'metrics',
    summary: 'Prometheus metrics of the node',
    access: 'metrics',
    errors: ['AUTH_REQUIRED', 'INVALID_TOKEN', 'ACCESS_DENIED'],
    success: { status: 200, description: 'Prometheus text format 0.0.4' },
  },
};
