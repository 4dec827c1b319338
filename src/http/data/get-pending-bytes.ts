import { toAttachmentDisposition } from '../../domain/files/content-disposition.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { GatewayParams, toGatewayLink } from './gateway-link.ts';
import { sendStoredBytes } from './send-stored-bytes.ts';

/**
 * GET and HEAD on an admission link (issue 42): the pending bytes a project's admission hook is
 * being asked about, only while it is (domain/admission/pending-bytes.ts says why that is no
 * side door). Never cached.
 */
export const getPendingBytes: RouteRegistrar = (app, services) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/admissions/:fileId',
    exposeHeadRoute: false,
    schema: { hide: true, params: GatewayParams },
    handler: async (request, reply) => {
      const pending = await services.pendingBytes.open(toGatewayLink(request.url, request.params));
      const { upload } = pending;
      return sendStoredBytes(request, reply, {
        sizeBytes: upload.sizeBytes,
        contentType: upload.contentType,
        etag: upload.etag,
        lastModified: upload.lastModified,
        contentDisposition: toAttachmentDisposition(toFileName(pending.filePath)),
        cacheControl: 'no-store',
        open: pending.open,
      });
    },
  });
};
