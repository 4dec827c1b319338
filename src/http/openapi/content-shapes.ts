import type { ResponseHeader } from './operation.ts';

/**
 * What the document says of the routes that stream their bodies (the data plane, tus): their
 * request bodies, their binary answers and the headers those answers carry. Their route schemas
 * declare none of it (Fastify never parses those bodies), so the operations table supplies it.
 */

/** Bytes of any type: the real Content-Type is the file's, the document names the generic one. */
export const binary = { type: 'string', format: 'binary' };

/** The PUT to a signed upload link: the file as the raw body, or as the `data` part of a form. */
export const uploadBody = {
  description:
    "The file's bytes: the raw body (any Content-Type; it must match the one declared, if any), or a multipart/form-data form whose `data` part is the file (its other parts are ignored)",
  content: {
    'application/octet-stream': { schema: binary },
    'multipart/form-data': {
      schema: { type: 'object', required: ['data'], properties: { data: binary } },
    },
  },
};

/** A tus chunk (PATCH to an upload URL, or the first chunk of a creation-with-upload). */
export const chunkBody = {
  description: 'The next bytes of the upload, starting at Upload-Offset',
  content: { 'application/offset+octet-stream': { schema: binary } },
};

/** tus creation-with-upload, and a POST standing for a PATCH: a chunk they may carry. */
export const optionalChunkBody = {
  description:
    'Optional: the first bytes of the upload (creation-with-upload), or the chunk of a POST that stands for a PATCH',
  content: chunkBody.content,
  required: false as const,
};

/** The upload PUT's answer: the quoted (opaque) ETag that POST /api/v1/file/{fileId}/verify wants back. */
export const storedContent = {
  type: 'object',
  required: ['etag', 'sizeBytes'],
  properties: {
    etag: { type: 'string', description: 'the quoted ETag of the stored bytes: send it to verify' },
    sizeBytes: { type: 'integer', description: 'how many bytes were stored' },
  },
};

const text = (description: string): ResponseHeader => ({ description, schema: { type: 'string' } });
const integer = (description: string): ResponseHeader => ({ description, schema: { type: 'integer' } });

export const etagHeader = text('The quoted ETag of the stored bytes (the upload PUT: send it to verify)');

/** What a download (or a rendition) answers besides its bytes, 200 and 206 alike. */
export const downloadHeaders: Record<string, ResponseHeader> = {
  ETag: text('The quoted ETag of the bytes (If-None-Match, If-Range take it back)'),
  'Last-Modified': text('When the bytes were stored (If-Modified-Since takes it back)'),
  'Accept-Ranges': text('`bytes`: a Range header asks for a part (answered 206)'),
  'Content-Length': integer('How many bytes the answer carries (a HEAD: how many a GET would)'),
  'Content-Disposition': text("`attachment` or `inline`, with the file's name"),
};

/** The 206 answer's part: `bytes first-last/size`. */
export const contentRangeHeader = text('The part answered, as `bytes first-last/size`');

const tusResumable = text('`1.0.0`, the tus version');

/** The status of a resumable upload, as every tus answer carries it. */
export const uploadStatusHeaders: Record<string, ResponseHeader> = {
  'Tus-Resumable': tusResumable,
  'Upload-Offset': integer('How many bytes the upload has kept: the next chunk starts there'),
  'Upload-Length': integer('The size of the whole upload, as created'),
  'Upload-Expires': text('When an unfinished upload is dropped (an HTTP date)'),
  ETag: text('Once the upload is complete: the quoted ETag of its bytes, for verify'),
};

/** tus creation (POST /api/v1/uploads) answers where the upload is, besides its status. */
export const uploadCreatedHeaders: Record<string, ResponseHeader> = {
  Location: text('The upload URL (signed): HEAD, PATCH and DELETE it'),
  'Coffer-File-Id': text("The id of the upload's file record"),
  ...uploadStatusHeaders,
};

export const tusHeaders: Record<string, ResponseHeader> = { 'Tus-Resumable': tusResumable };

/** The file's bytes, whatever their type: generated clients read them as a blob, not as JSON. */
export const binaryContent = { content: { 'application/octet-stream': { schema: binary } } };

/** @fastify/swagger takes a response's headers as JSON schemas with their description. */
export function toHeaderSchemas(headers: Record<string, ResponseHeader>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [
      name,
      { ...header.schema, description: header.description },
    ]),
  );
}
