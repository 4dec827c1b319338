import type { ErrorCode } from '../../errors/error-codes.ts';
import {
  chunkBody,
  optionalChunkBody,
  tusHeaders,
  uploadCreatedHeaders,
  uploadStatusHeaders,
} from './content-shapes.ts';
import { fileRead, type Operation } from './operation.ts';

const tusErrors: ErrorCode[] = ['UPLOAD_NOT_FOUND', 'TUS_VERSION_UNSUPPORTED'];
/** HEAD and PATCH of a finished upload whose bytes a later PUT replaced (issue 35, item 7). */
const statusErrors: ErrorCode[] = [...tusErrors, 'UPLOAD_REPLACED'];
const chunkErrors: ErrorCode[] = [
  ...statusErrors,
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
    description:
      'How much of a resumable upload is kept (Upload-Offset), to resume it from there after an interruption. For a complete upload verified on its last byte (Upload-Metadata verify=true, or the project setting resumableAutoVerify), the verify runs (once: a verified record answers as it is): Coffer-File-Verified: true, or the error of that verify.',
    summary:
      'A resumable upload: Upload-Offset (bytes kept), Upload-Length, Upload-Expires, and ETag once committed',
    access: 'link',
    errors: statusErrors,
    success: {
      status: 200,
      description: 'The upload status in headers, never cached',
      headers: uploadStatusHeaders,
    },
  },
  'PATCH /blob/v1/uploads/:uploadId': {
    operationId: 'appendResumableUpload',
    description:
      "Sends the next chunk of a resumable upload at Upload-Offset. The chunk that reaches Upload-Length commits the upload and answers its ETag: verify with it. An upload created with Upload-Metadata verify=true (or in a project with resumableAutoVerify=true) is verified by that chunk, by the verify of POST /api/v1/file/{fileId}/verify (checksum, malware scan, admission hook): the answer is then 200 with Coffer-File-Verified: true and the verified file record as JSON, or that verify's error (the upload stays complete and verifiable; a repeated last PATCH answers the same, verifying once).",
    summary:
      'Append a chunk (application/offset+octet-stream) at Upload-Offset, optionally with Upload-Checksum (sha1 or sha256); the chunk that reaches Upload-Length commits the upload and answers its ETag',
    access: 'link',
    errors: [...chunkErrors, 'FILE_INFECTED', 'FILE_TOO_LARGE', 'SCANNER_UNAVAILABLE'],
    requestBody: chunkBody,
    success: {
      status: 204,
      description: 'Kept: the new Upload-Offset (and the ETag for verify once complete)',
      headers: uploadStatusHeaders,
    },
  },
  'DELETE /blob/v1/uploads/:uploadId': {
    operationId: 'terminateResumableUpload',
    description:
      'Abandons an unfinished resumable upload: its bytes go, and so does its file record if it never took an upload.',
    summary: 'Terminate an unfinished resumable upload: its bytes, and its never-uploaded file record, go',
    access: 'link',
    errors: [...tusErrors, 'UPLOAD_FINISHED', 'UPLOAD_LOCKED'],
    success: { status: 204, description: 'Terminated', headers: tusHeaders },
  },
  'POST /blob/v1/uploads/:uploadId': {
    operationId: 'overrideResumableUpload',
    description:
      'For networks that let only GET and POST through: a POST with X-HTTP-Method-Override: PATCH, HEAD or DELETE stands for that method.',
    summary:
      'A PATCH, HEAD or DELETE named by X-HTTP-Method-Override (tus, for networks that pass only GET and POST)',
    access: 'link',
    errors: [...chunkErrors, 'UPLOAD_FINISHED'],
    requestBody: optionalChunkBody,
    success: { status: 204, description: 'As the method it stands for', headers: uploadStatusHeaders },
  },
};

/** Parallel uploads of parts straight to S3 (issue 20): the file's manager, on an S3 store. */
const multipartErrors: ErrorCode[] = [...fileRead, 'UPLOAD_NOT_FOUND', 'UPLOAD_FINISHED', 'UPLOAD_LOCKED'];
const multipartOperations: Record<string, Operation> = {
  'POST /api/v1/file/:fileId/multipart': {
    operationId: 'startMultipartUpload',
    description:
      "On an S3 store: opens an S3 multipart upload of the file's content and answers a presigned URL per part, to PUT in parallel straight to S3; then complete it and verify. The file's creator and admins.",
    access: 'user',
    errors: [...multipartErrors, 'ALREADY_VERIFIED', 'STORAGE_FULL'],
    success: { status: 200, component: 'MultipartUpload' },
  },
  'GET /api/v1/file/:fileId/multipart': {
    operationId: 'listMultipartParts',
    description:
      "The parts S3 holds of the file's parallel upload, with their sizes and ETags: what to send again after an interruption.",
    access: 'user',
    errors: multipartErrors,
    success: { status: 200, component: 'MultipartParts' },
  },
  'POST /api/v1/file/:fileId/multipart/complete': {
    operationId: 'completeMultipartUpload',
    description:
      "Joins the parts S3 holds into the file's content and answers the ETag to verify with. The content is held to what the upload request declared.",
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
    description:
      'Abandons the parallel upload: S3 drops its parts, and a file record that never took an upload goes too.',
    access: 'user',
    errors: multipartErrors,
    success: {
      status: 204,
      description: 'Aborted: the parts, and the file record if it never took an upload, are gone',
    },
  },
  'POST /api/v1/file/:fileId/multipart/sign': {
    operationId: 'signMultipartRequest',
    description:
      "Uppy's `@uppy/aws-s3` (v6) `signRequest` on an S3 store (issue 43): where to send one S3 request of the file's parallel upload, always on the file's own key (`key` is the file's id, whatever the client named). createMultipartUpload starts the upload as POST /api/v1/file/{fileId}/multipart does and answers a Coffer link that names its UploadId; uploadPart, listParts and abortMultipartUpload answer presigned S3 URLs for that upload only (an abort is done by Coffer at once); completeMultipartUpload answers a Coffer link to POST S3's <CompleteMultipartUpload> XML to: Coffer completes the upload and verifies the file as POST /api/v1/file/{fileId}/verify does, answering S3's <CompleteMultipartUploadResult> with Coffer-File-Verified: true, or S3's <Error> with Coffer's code and 4xx status. The file's creator and admins.",
    access: 'user',
    errors: [...multipartErrors, 'ALREADY_VERIFIED', 'STORAGE_FULL'],
    success: { status: 200, component: 'MultipartSignedRequest' },
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
    requestBody: optionalChunkBody,
    success: {
      status: 201,
      description:
        'Created: Location is the upload URL (tus), Coffer-File-Id the file record, Upload-Offset the bytes kept of a creation-with-upload',
      headers: uploadCreatedHeaders,
    },
  },
  ...resumableOperations,
  ...multipartOperations,
};
