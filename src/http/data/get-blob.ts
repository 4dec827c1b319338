import { toAttachmentDisposition } from '../../domain/files/content-disposition.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { GatewayParams, toGatewayLink } from './gateway-link.ts';
import { sendStoredBytes } from './send-stored-bytes.ts';

/** GET and HEAD on a signed download link: the verified bytes (send-stored-bytes.ts says how). */
export const getBlob: RouteRegistrar = (app, services) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/:fileId',
    exposeHeadRoute: false,
    schema: { hide: true, params: GatewayParams },
    handler: async (request, reply) => {
      const file = await services.fileReading.getDownloadable(toGatewayLink(request.url, request.params));
      return sendStoredBytes(request, reply, {
        ...file.content,
        etag: file.etag,
        contentDisposition: toAttachmentDisposition(toFileName(file.filePath)),
        cacheControl: 'private, no-transform',
        open: (range) => services.fileReading.openContent(file, { range }),
      });
    },
  });
};
