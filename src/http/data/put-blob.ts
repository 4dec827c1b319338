import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredBlob } from '../../domain/blobs/blob-store.ts';
import type { SentBody } from '../../domain/files/check-upload-body.ts';
import type { GatewayLink } from '../../domain/files/get-linked-file.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { GatewayParams, toGatewayLink } from './gateway-link.ts';
import { isMultipart, readMultipartUpload } from './read-multipart-upload.ts';

/**
 * Spec 4.2 step 2: PUT to the signed upload link. The body is a multipart form whose file part
 * is named `data` (only that part's bytes are stored) or any raw body (the original SDKs send
 * the file as is). Both go through FileUploads.acceptUpload, which hands the store the SHA-256
 * its check computes. Answers 200 with the quoted ETag the verify step wants back (opaque: S3's
 * own, or on the local stores the first 128 bits of the SHA-256, content-etag.ts).
 */
export const putBlob: RouteRegistrar = (app, services) => {
  app.put(
    '/files/:fileId',
    { config: { streamsBody: true }, schema: { hide: true, params: GatewayParams } },
    (request, reply) =>
      receiveUpload(request, reply, toGatewayLink(request.url, request.params), (...args) =>
        services.fileUploads.acceptUpload(...args),
      ),
  );
  // A new version's upload link (issue 38): the same body rules, its own signed path.
  app.put(
    '/versions/:fileId',
    { config: { streamsBody: true }, schema: { hide: true, params: GatewayParams } },
    (request, reply) =>
      receiveUpload(request, reply, toGatewayLink(request.url, request.params), (...args) =>
        services.versionUploads.acceptUpload(...args),
      ),
  );
};

type Accept = (link: GatewayLink, body: Readable, sent: SentBody, signal: AbortSignal) => Promise<StoredBlob>;

/** One PUT's body (a multipart form's `data` part, or the raw body) to `accept`; answers its ETag. */
async function receiveUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  link: GatewayLink,
  accept: Accept,
): Promise<FastifyReply> {
  // RFC 9110 §14.5: a PUT with Content-Range asks for part of the resource to be replaced;
  // stored as the whole file, a part would verify as a complete, truncated file.
  if (request.headers['content-range'] !== undefined)
    throw validationFailed(
      'Content-Range: an upload link takes the whole file in one PUT; to send a file in parts, ask for a resumable upload (POST /api/v1/file with resumable: true, or tus at POST /api/v1/uploads)',
    );
  const signal = abortOnClose(request);
  // A form's file part has no length of its own; a raw body's is the request's Content-Length,
  // which Node's parser holds it to (a shorter body is an aborted request).
  const info: StoredBlob = isMultipart(request.headers['content-type'])
    ? await readMultipartUpload(request.raw, (part) =>
        accept(link, part.stream, { contentType: part.contentType }, signal),
      )
    : await accept(
        link,
        request.raw,
        { contentType: request.headers['content-type'], sizeBytes: toContentLength(request) },
        signal,
      );
  return reply.header('etag', info.etag).send({ etag: info.etag, sizeBytes: info.sizeBytes });
}

/** The request's Content-Length as a number, undefined without one (a chunked body). */
function toContentLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** An upload whose client goes away is abandoned: the store deletes what it had written. */
function abortOnClose(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) controller.abort(new Error('client closed the upload'));
  });
  return controller.signal;
}
