import { Type } from '@sinclair/typebox';
import { toAttachmentDisposition } from '../../domain/files/content-disposition.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toGatewayLink } from './gateway-link.ts';
import { sendStoredBytes } from './send-stored-bytes.ts';

/**
 * GET and HEAD on an archive link (issue 40): the ZIP, made as it is sent from the layout fixed
 * at its creation, so its length, ETag and every byte are known before the first; Range,
 * If-Range and conditional GET as a download. The files are checked before any byte (410
 * ARCHIVE_STALE); a failure after the headers cuts the connection (send-stored-bytes.ts).
 */
export const getArchive: RouteRegistrar = (app, services) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/archives/:archiveId',
    exposeHeadRoute: false,
    schema: { hide: true, params: Type.Object({ archiveId: Type.String() }) },
    handler: async (request, reply) => {
      const { archive, open } = await services.archives.getServable(
        toGatewayLink(request.url, { fileId: request.params.archiveId }),
      );
      return sendStoredBytes(request, reply, {
        sizeBytes: archive.archiveBytes,
        contentType: 'application/zip',
        etag: archive.etag,
        lastModified: archive.createdAt,
        contentDisposition: toAttachmentDisposition(archive.fileName),
        cacheControl: 'private, no-transform',
        open: async (range) => {
          // A client gone stops the store reads: the stream's end aborts what it still had open.
          const reads = new AbortController();
          reply.raw.once('close', () => reads.abort());
          const body = open(range, reads.signal);
          body.once('error', (error) => {
            reply.log.error({ err: error }, 'an archive download broke off');
          });
          return { body };
        },
      });
    },
  });
};
