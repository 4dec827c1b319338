import type { FastifyReply } from 'fastify';
import { toAttachmentDisposition } from '../../domain/files/content-disposition.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { isNotModified, isRangeCurrent } from './conditional-request.ts';
import { GatewayParams, toGatewayLink } from './gateway-link.ts';
import { answerRange } from './parse-range.ts';

/**
 * GET and HEAD on a signed download link: the verified bytes, with Range support (206/416),
 * conditional GET (If-None-Match, If-Modified-Since, If-Range), and headers that keep browsers from running the content.
 */
export const getBlob: RouteRegistrar = (app, services) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/:fileId',
    exposeHeadRoute: false,
    schema: { hide: true, params: GatewayParams },
    handler: async (request, reply) => {
      const file = await services.fileReading.getDownloadable(toGatewayLink(request.url, request.params));
      const { sizeBytes, contentType, lastModified } = file.content;
      reply
        .header('content-type', contentType)
        .header('etag', file.etag)
        .header('last-modified', lastModified.toUTCString())
        .header('accept-ranges', 'bytes')
        .header('content-disposition', toAttachmentDisposition(toFileName(file.filePath)))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-transform');
      const validators = { etag: file.etag, lastModified };
      if (isNotModified(request.headers, validators)) return reply.code(304).send();
      const rangeHeader = isRangeCurrent(request.headers['if-range'], validators)
        ? request.headers.range
        : undefined;
      const range = answerRange(reply, rangeHeader, sizeBytes);
      if (request.method === 'HEAD' || range === null) return sendEmpty(reply);
      // Always an explicit range: the body can never carry more than Content-Length declared.
      const blob = await services.fileReading.openContent(file, { range });
      return reply.send(blob.body);
    },
  });
};

function sendEmpty(reply: FastifyReply) {
  // Content-Length already says how many bytes a GET would carry; a HEAD carries none.
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string>);
  reply.raw.end();
  return reply;
}
