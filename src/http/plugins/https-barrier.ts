import type { FastifyInstance } from 'fastify';
import { httpsRequired } from '../../errors/errors.ts';

/** Health probes come from the load balancer, often over plain HTTP, and reveal nothing. */
const exempt = new Set(['/healthz', '/readyz']);

/**
 * Barrier 1 (spec §5: HTTPS only). With built-in TLS every request is HTTPS. Behind a proxy
 * (--trust-proxy) the proxy must say the client used HTTPS. Without either, the server only
 * listens on loopback (checked at start), which is development.
 *
 * security: the scheme is Fastify's `request.protocol`, the last `X-Forwarded-Proto` entry and
 * only from a trusted peer: what the nearest proxy set (or passed on), never an `https` a
 * client wrote before a proxy that appends (issue 25, item 4).
 */
export function installHttpsBarrier(app: FastifyInstance, options: { trustProxy: boolean }): void {
  if (!options.trustProxy) return;
  app.addHook('onRequest', async (request) => {
    if (exempt.has(request.url.split('?')[0] ?? '')) return;
    if (request.protocol.trim().toLowerCase() !== 'https') throw httpsRequired();
  });
}
