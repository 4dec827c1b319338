import type { FastifyRequest } from 'fastify';
import type { ClientContext } from '../domain/identity/identity-service.ts';

/** The address (limits count by it) and the user agent (events record it) of a request. */
export function toClientContext(request: FastifyRequest): ClientContext {
  const userAgent = request.headers['user-agent'];
  return { clientAddress: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : null };
}
