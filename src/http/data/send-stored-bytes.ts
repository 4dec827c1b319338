import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ByteRange, type DirectBody, isDirectBody } from '../../domain/blobs/blob-store.ts';
import { isNotModified, isRangeCurrent } from './conditional-request.ts';
import { answerRange } from './parse-range.ts';

/** What the gateway says of stored bytes it serves: their validators and how to present them. */
export type ServedBytes = {
  sizeBytes: number;
  contentType: string;
  etag: string;
  lastModified: Date;
  contentDisposition: string;
  cacheControl: string;
  /** Opens the bytes of an inclusive range (always explicit: never more than Content-Length said). */
  open(range: ByteRange): Promise<{ body: unknown }>;
};

/**
 * GET and HEAD of stored bytes: Range support (206/416), conditional GET (If-None-Match,
 * If-Modified-Since, If-Range), and headers that keep browsers from running the content.
 * Downloads and renditions answer alike.
 */
export async function sendStoredBytes(request: FastifyRequest, reply: FastifyReply, served: ServedBytes) {
  const { sizeBytes, etag, lastModified } = served;
  reply
    .header('content-type', served.contentType)
    .header('etag', etag)
    .header('last-modified', lastModified.toUTCString())
    .header('accept-ranges', 'bytes')
    .header('content-disposition', served.contentDisposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', served.cacheControl);
  const validators = { etag, lastModified };
  if (isNotModified(request.headers, validators)) return reply.code(304).send();
  const rangeHeader = isRangeCurrent(request.headers['if-range'], validators)
    ? request.headers.range
    : undefined;
  const range = answerRange(reply, rangeHeader, sizeBytes);
  if (request.method === 'HEAD' || range === null) return sendEmpty(reply);
  const blob = await served.open(range);
  if (isDirectBody(blob.body)) return sendDirect(reply, blob.body);
  return reply.send(blob.body);
}

/**
 * A large local file: written straight to the socket with buffers it reuses (file-range-body.ts).
 * The headers are all set by now; onResponse hooks (metrics, the access log) still run.
 */
function sendDirect(reply: FastifyReply, body: DirectBody) {
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string>);
  body.writeTo(reply.raw).catch((error: unknown) => {
    // The headers are gone: the one honest answer left is a cut connection.
    reply.log.error({ err: error }, 'a download broke off: the stored bytes could not be read');
    reply.raw.destroy();
  });
  return reply;
}

function sendEmpty(reply: FastifyReply) {
  // Content-Length already says how many bytes a GET would carry; a HEAD carries none.
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string>);
  reply.raw.end();
  return reply;
}
