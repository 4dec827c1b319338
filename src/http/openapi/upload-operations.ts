import type { ErrorCode } from '../../errors/error-codes.ts';
import { fileRead, type Operation } from './operation.ts';

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

/** Parallel uploads of parts straight to S3 (issue 20): the file's manager, on an S3 store. */
const multipartErrors: ErrorCode[] = [...fileRead, 'UPLOAD_NOT_FOUND', 'UPLOAD_FINISHED', 'UPLOAD_LOCKED'];
const multipartOperations: Record<string, Operation> = {
  'POST /api/v1/file/:fileId/multipart': {
    operationId: 'startMultipartUpload',
    access: 'user',
    errors: [...multipartErrors, 'ALREADY_VERIFIED', 'STORAGE_FULL'],
    success: { status: 200, component: 'MultipartUpload' },
  },
  'GET /api/v1/file/:fileId/multipart': {
    operationId: 'listMultipartParts',
    access: 'user',
    errors: multipartErrors,
    success: { status: 200, component: 'MultipartParts' },
  },
  'POST /api/v1/file/:fileId/multipart/complete': {
    operationId: 'completeMultipartUpload',
    access: 'user',
    errors: [
      ...multipartErrors,
      'ALREADY_VERIFIED',
      'CONTENT_MISMATCH',
      'CONTENT_TYPE_NOT_ALLOWED',
      'QUOTA_EXCEEDED',
      'STORAGE_FULL',
    ],
    success: {
      status: 200,
      component: 'MultipartCompletion',
      description: "Committed as the file record's upload: verify with the ETag",
    },
  },
  'DELETE /api/v1/file/:fileId/multipart': {
    operationId: 'abortMultipartUpload',
    access: 'user',
    errors: multipartErrors,
    success: {
      status: 204,
      description: 'Aborted: the parts, and the file record if it never took an upload, are gone',
    },
  },
};

/** Resumable (tus) and parallel (S3 multipart) uploads: issue 20. */
export const uploadOperations: Record<string, Operation> = {
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
  ...multipartOperations,
};
