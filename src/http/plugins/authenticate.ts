import type { FastifyInstance } from 'fastify';
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
    const header = single(request.headers.authorization);
    const match = header ? /^Bearer +([^\s]+) *$/i.exec(header) : null;
    if (!match?.[1]) throw authRequired();
    const { principal, user } = await options.identity.authenticate(request.project, match[1]);
    request.principal = principal;
    request.user = user;
  });
}
