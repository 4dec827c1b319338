import type { FastifyReply, FastifyRequest } from 'fastify';
import { consoleSessionSeconds } from '../../domain/operators/operator-service.ts';

/**
 * The console's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * request carries it), scoped to /console, Secure whenever the console is reached over HTTPS.
 */
export const sessionCookie = {
  name: 'coffer_console',
  set(request: FastifyRequest, reply: FastifyReply, token: string): void {
    reply.setCookie(this.name, token, { ...attributes(request), maxAge: consoleSessionSeconds });
  },
  clear(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(this.name, attributes(request));
  },
};

function attributes(request: FastifyRequest) {
  return {
    path: '/console',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
  };
}
