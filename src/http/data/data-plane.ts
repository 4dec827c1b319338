import type { Services } from '../../services.ts';
import type { TypedApp } from '../route-context.ts';
import { getArchive } from './get-archive.ts';
import { getBlob } from './get-blob.ts';
import { getPendingBytes } from './get-pending-bytes.ts';
import { getRendition } from './get-rendition.ts';
import { putBlob } from './put-blob.ts';
import { resumableRoutes } from './resumable/resumable-routes.ts';
import { sendTusDiscovery, tusRequestHeaders, tusResponseHeaders } from './resumable/tus-protocol.ts';
import { s3MultipartLinks } from './s3-multipart-links.ts';

const exposedHeaders = `ETag, Content-Length, Content-Range, Content-Disposition, Accept-Ranges, Last-Modified, ${tusResponseHeaders}`;

/**
 * /blob/v1: the object-store gateway. No app credentials and no token: the signed link is the
 * credential (spec §1: anyone who holds the link can use it). Browsers must see the ETag of an
 * upload, so every answer carries CORS headers that expose it.
 */
export async function dataPlane(app: TypedApp, services: Services): Promise<void> {
  // Bodies are streams handed to the blob store as they come, whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', exposedHeaders);
  });

  // A CORS preflight, and tus discovery (an OPTIONS without Access-Control-Request-Method).
  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    const requested = request.headers['access-control-request-headers'];
    return sendTusDiscovery(reply, services.config.maxFileSizeBytes)
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS')
      .header(
        'access-control-allow-headers',
        typeof requested === 'string' ? requested : `content-type, range, ${tusRequestHeaders}`,
      )
      .header('access-control-max-age', '600')
      .send();
  });

  putBlob(app, services);
  resumableRoutes(app, services);
  getBlob(app, services);
  getRendition(app, services);
  getArchive(app, services);
  getPendingBytes(app, services);
  s3MultipartLinks(app, services);
}
