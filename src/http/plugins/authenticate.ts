import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdentityService } from '../../domain/identity/identity-service.ts';
import { authRequired } from '../../errors/errors.ts';
import { single } from './app-credentials.ts';

/**
 * Barrier 3 (spec §5): every control-plane call but login and signup needs
 * `Authorization: Bearer <JWT>`. Runs before the body is parsed or validated, so a call
 * without a token gets 401 whatever it carries (DESIGN §3).
 */
export function installAuthenticate(app: FastifyInstance, options: { identity: IdentityService }): void {
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || request.routeOptions.config?.public) return;
    const token = readBearerToken(request);
    if (token === undefined) throw authRequired();
    const { principal, user, sessionId } = await options.identity.authenticate(request.project, token);
    const userAgent = single(request.headers['user-agent']);
    // The events a request causes name where it came from (issue 22); bounded, as a header may be long.
    request.principal = {
      ...principal,
      client: { ip: request.ip, userAgent: userAgent?.slice(0, 256) ?? null },
    };
    request.user = user;
    request.sessionId = sessionId;
  });
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function readBearerToken(request: FastifyRequest): string | undefined {
  const header = single(request.headers.authorization);
  const match = header ? /^Bearer +([^\s]+) *$/i.exec(header) : null;
  return match?.[1] || undefined;
}
