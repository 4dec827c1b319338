import type { FastifyRequest } from 'fastify';
import type { StoredBlob } from '../../domain/blobs/blob-store.ts';
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
    async (request, reply) => {
      const link = toGatewayLink(request.url, request.params);
      // RFC 9110 §14.5: a PUT with Content-Range asks for part of the resource to be replaced;
      // stored as the whole file, a part would verify as a complete, truncated file.
      if (request.headers['content-range'] !== undefined)
        throw validationFailed(
          'Content-Range: an upload link takes the whole file in one PUT; to send a file in parts, ask for a resumable upload (POST /api/v1/file with resumable: true, or tus at POST /api/v1/uploads)',
        );
      const signal = abortOnClose(request);
      const info: StoredBlob = isMultipart(request.headers['content-type'])
        ? await readMultipartUpload(request.raw, (part) =>
            services.fileUploads.acceptUpload(link, part.stream, part.contentType, signal),
          )
        : await services.fileUploads.acceptUpload(link, request.raw, request.headers['content-type'], signal);
      return reply.header('etag', info.etag).send({ etag: info.etag, sizeBytes: info.sizeBytes });
    },
  );
};

/** An upload whose client goes away is abandoned: the store deletes what it had written. */
function abortOnClose(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) controller.abort(new Error('client closed the upload'));
  });
  return controller.signal;
}
