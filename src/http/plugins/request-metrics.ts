import type { FastifyInstance } from 'fastify';
import { isAppError } from '../../errors/app-error.ts';
import type { ServiceMetrics } from '../../metrics/service-metrics.ts';

/** The gateway's download route: its completed answers count as downloaded bytes. */
const downloadRoute = '/blob/v1/files/:fileId';
const renditionRoute = '/blob/v1/renditions/:fileId/:spec';

/**
 * Counts every answer by route pattern and status with its duration, the bytes of completed
 * gateway downloads, and the requests a store failed (UNAVAILABLE, STORAGE_FULL).
 */
export function installRequestMetrics(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    const counted = route === downloadRoute || route === renditionRoute;
    if (counted && request.method === 'GET' && reply.raw.writableFinished) {
      const length = Number(reply.getHeader('content-length'));
      if ((reply.statusCode === 200 || reply.statusCode === 206) && Number.isSafeInteger(length)) {
        if (route === downloadRoute) metrics.downloaded(length);
        else metrics.renditions.served(length);
      }
    }
  });
  app.addHook('onError', async (request, _reply, error) => {
    if (isAppError(error) && isRenditionRefusal(request.routeOptions.url, error.code))
      metrics.renditions.refused(error.code);
    if (!isAppError(error) || error.store === undefined) return;
    if (error.code === 'UNAVAILABLE' || error.code === 'STORAGE_FULL')
      metrics.storeFailed(error.store, error.code);
  });
}

const renditionRefusals = new Set([
  'UNSUPPORTED_MEDIA',
  'IMAGE_TOO_LARGE',
  'IMAGE_UNREADABLE',
  'RENDER_BUSY',
  'RATE_LIMITED',
  'RENDITIONS_DISABLED',
]);

/** A refusal of a rendition: at its link's issue (GET /api/v1/file/:id) or on the gateway. */
function isRenditionRefusal(route: string | undefined, code: string): boolean {
  return (route === renditionRoute || route === '/api/v1/file/:fileId') && renditionRefusals.has(code);
}
