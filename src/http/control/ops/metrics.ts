import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isLoopback } from '../../../config/listen-address.ts';
import {
  authRequired,
  invalidToken,
  metricsLoopbackOnly,
  metricsUnavailable,
} from '../../../errors/errors.ts';
import type { RouteRegistrar } from '../../route-context.ts';

/**
 * GET /metrics: Prometheus text (src/metrics/). With COFFER_METRICS_TOKEN set, a scrape
 * presents it as a bearer token (from anywhere); unset, only a client on this machine that
 * connects directly may scrape: a request relayed by a proxy (any X-Forwarded-For or
 * Forwarded header) is refused, since a proxy on loopback would otherwise relay the world.
 */
export const metrics: RouteRegistrar = (app, services) => {
  const expected = services.config.metricsToken && hash('sha256', services.config.metricsToken, 'buffer');
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected) assertBearer(request, expected);
    else if (!isDirectLoopback(request)) throw metricsLoopbackOnly();
    const text = await services.metrics.exposition().catch((error: unknown) => {
      throw metricsUnavailable(error);
    });
    return reply
      .header('content-type', services.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(text);
  });
};

function assertBearer(request: FastifyRequest, expected: Buffer): void {
  const header = request.headers.authorization;
  if (!header) throw authRequired();
  const match = /^Bearer (.+)$/i.exec(header);
  // security: compare digests of equal length in constant time.
  if (!match || !timingSafeEqual(hash('sha256', match[1]!, 'buffer'), expected)) throw invalidToken();
}

function isDirectLoopback(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined)
    return false;
  const address = request.socket.remoteAddress ?? '';
  return isLoopback(address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address);
}
