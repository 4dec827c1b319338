import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/events/event.ts';
import { operatorActor } from '../../domain/events/user-events.ts';

/** The operator behind a console request, as its events record them (id, address, user agent). */
export function toConsoleActor(request: FastifyRequest): Actor {
  const userAgent = request.headers['user-agent'];
  return operatorActor(request.operator?.id ?? null, {
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 256) : null,
  });
}
