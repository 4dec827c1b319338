import type { FastifyInstance } from 'fastify';
import { isAppError } from '../../errors/app-error.ts';
import type { ServiceMetrics } from '../../metrics/service-metrics.ts';

/** The gateway's download route: its completed answers count as downloaded bytes. */
const downloadRoute = '/blob/v1/files/:fileId';

/**
 * Counts every answer by route pattern and status with its duration, the bytes of completed
 * gateway downloads, and the requests a store failed (UNAVAILABLE, STORAGE_FULL).
 */
export function installRequestMetrics(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (route === downloadRoute && request.method === 'GET' && reply.raw.writableFinished) {
      const length = Number(reply.getHeader('content-length'));
      if ((reply.statusCode === 200 || reply.statusCode === 206) && Number.isSafeInteger(length))
        metrics.downloaded(length);
    }
  });
  app.addHook('onError', async (_request, _reply, error) => {
    if (!isAppError(error) || error.store === undefined) return;
    if (error.code === 'UNAVAILABLE' || error.code === 'STORAGE_FULL')
      metrics.storeFailed(error.store, error.code);
  });
}
