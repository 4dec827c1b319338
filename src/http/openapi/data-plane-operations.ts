import { downloadHeaders, etagHeader, storedContent, uploadBody } from './content-shapes.ts';
import type { Operation } from './operation.ts';

/** The data plane: signed upload and download links, and renditions (operations.ts merges them). */
export const dataPlaneOperations: Record<string, Operation> = {
  'PUT /blob/v1/files/:fileId': {
    operationId: 'uploadContent',
    description:
      'Step 2 of an upload (putFileUrl of POST /api/v1/file): the whole file in one PUT, as the raw body or as the `data` part of a multipart form. Answers the ETag to verify with. A body unlike what the upload request declared is 400 CONTENT_MISMATCH and nothing of it is kept; to send a file in parts, use a resumable upload.',
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
      'FILE_INFECTED',
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
  'GET /blob/v1/files/:fileId': {
    operationId: 'downloadContent',
    description:
      "The file's bytes, through the signed link of GET /api/v1/file/{fileId}, with its own Content-Type. Takes Range (206), If-None-Match, If-Modified-Since and If-Range. No app credentials or token: the signed query string is the credential.",
    summary: "Download a verified file's content through its signed link",
    access: 'link',
    errors: [
      'FILE_NOT_FOUND',
      'FILE_NOT_VERIFIED',
      'LINK_REVOKED',
      'RANGE_NOT_SATISFIABLE',
      'FILE_QUARANTINED',
    ],
    success: {
      status: 200,
      description: 'The whole file, with its own Content-Type',
      binary: true,
      ranges: true,
      headers: downloadHeaders,
    },
  },
  'HEAD /blob/v1/files/:fileId': {
    operationId: 'headContent',
    description: 'What a GET of the link would answer (size, type, ETag, Last-Modified), without the bytes.',
    summary: "The download's headers (size, type, ETag) without the content",
    access: 'link',
    errors: ['FILE_NOT_FOUND', 'FILE_NOT_VERIFIED', 'LINK_REVOKED', 'FILE_QUARANTINED'],
    success: {
      status: 200,
      description: 'The headers of the download, without the bytes',
      binary: true,
      headers: downloadHeaders,
    },
  },
  'GET /blob/v1/renditions/:fileId/:spec': {
    operationId: 'downloadRendition',
    description:
      'A rendition of an image (the `url` of GET /api/v1/file/{fileId} with rendition parameters): rendered on first use, then served stored. Takes Range and conditional requests as a download does.',
    summary:
      'A rendition of an image (the `url` of GET /api/v1/file/:fileId with rendition parameters): rendered on first use, then served stored',
    access: 'link',
    errors: [
      'FILE_NOT_FOUND',
      'FILE_NOT_VERIFIED',
      'LINK_REVOKED',
      'RANGE_NOT_SATISFIABLE',
      'FILE_QUARANTINED',
      'UNSUPPORTED_MEDIA',
      'IMAGE_TOO_LARGE',
      'IMAGE_UNREADABLE',
      'MEDIA_UNREADABLE',
      'RENDER_BUSY',
    ],
    success: {
      status: 200,
      description: 'The rendered image, with its own Content-Type',
      binary: true,
      ranges: true,
      headers: downloadHeaders,
    },
  },
  'HEAD /blob/v1/renditions/:fileId/:spec': {
    operationId: 'headRendition',
    description:
      'What a GET of the rendition link would answer, without the bytes; renders the rendition if it is not yet.',
    summary: "A rendition's headers (size, type, ETag) without its bytes; renders it if it is not yet",
    access: 'link',
    errors: [
      'FILE_NOT_FOUND',
      'FILE_NOT_VERIFIED',
      'LINK_REVOKED',
      'UNSUPPORTED_MEDIA',
      'IMAGE_TOO_LARGE',
      'IMAGE_UNREADABLE',
      'MEDIA_UNREADABLE',
      'RENDER_BUSY',
    ],
    success: {
      status: 200,
      description: 'The headers of the rendition, without the bytes',
      binary: true,
      headers: downloadHeaders,
    },
  },
  'GET /blob/v1/archives/:archiveId': {
    operationId: 'downloadArchive',
    description:
      'The ZIP of POST /api/v1/archives, through its signed link: stored entries (no recompression), UTF-8 names, ZIP64 where needed. Its length, ETag and every byte are fixed when the archive is made, so Range (206) with If-Range resumes a broken download; If-None-Match and If-Modified-Since as a download. Before any byte, every file is checked to be the one the archive was made of: one deleted, trashed, replaced or whose links were revoked is 410 ARCHIVE_STALE.',
    summary: 'Download an archive (one ZIP of many files) through its signed link',
    access: 'link',
    errors: ['NOT_FOUND', 'ARCHIVE_STALE', 'RANGE_NOT_SATISFIABLE'],
    success: {
      status: 200,
      description: 'The whole ZIP (application/zip)',
      binary: true,
      ranges: true,
      headers: downloadHeaders,
    },
  },
  'HEAD /blob/v1/archives/:archiveId': {
    operationId: 'headArchive',
    description:
      'What a GET of the archive link would answer (its exact length, ETag), without the bytes; 410 ARCHIVE_STALE as the GET.',
    summary: "An archive's headers (exact length, ETag) without its bytes",
    access: 'link',
    errors: ['NOT_FOUND', 'ARCHIVE_STALE'],
    success: {
      status: 200,
      description: 'The headers of the archive download, without the bytes',
      binary: true,
      headers: downloadHeaders,
    },
  },
};
