import type { FastifyInstance } from 'fastify';
import { toPrincipal } from '../../domain/access/decide-file-access.ts';
import type { IdentityService } from '../../domain/identity/identity-service.ts';
import { enrolmentTokenPrefix, type SecondFactors } from '../../domain/mfa/second-factors.ts';
import { authRequired, invalidToken } from '../../errors/errors.ts';
import { readBearerToken, single } from './header-values.ts';

/**
 * Barrier 3 (spec §5): every control-plane call but login and signup needs
 * `Authorization: Bearer <JWT>`, or a service key (`Bearer csk_…`, issue 35). Runs before the body is parsed or validated, so a call
 * without a token gets 401 whatever it carries (DESIGN §3).
 */
export function installAuthenticate(
  app: FastifyInstance,
  options: { identity: IdentityService; secondFactors: SecondFactors },
): void {
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || request.routeOptions.config?.public) return;
    const userAgent = single(request.headers['user-agent']);
    // The events a request causes name where it came from (issue 22); bounded, as a header may be long.
    const client = { ip: request.ip, userAgent: userAgent?.slice(0, 256) ?? null };
    // A service key, checked by the app-credentials barrier: a project admin that is no user.
    if (request.serviceKeyPrincipal) {
      request.principal = { ...request.serviceKeyPrincipal, client };
      request.user = undefined;
      request.sessionId = undefined;
      return;
    }
    const token = readBearerToken(request);
    if (token === undefined) throw authRequired();
    request.enrolmentIssuedAt = undefined;
    // An enrolment token (issue 41, requireMfa) opens the enrolment routes only: elsewhere it
    // is no token at all.
    if (token.startsWith(enrolmentTokenPrefix)) {
      const found =
        request.routeOptions.config?.allowEnrolmentToken === true
          ? await options.secondFactors.authenticateEnrolment(request.project, token)
          : undefined;
      if (!found) throw invalidToken();
      request.principal = { ...toPrincipal(request.project, found.user), client };
      request.user = found.user;
      request.sessionId = undefined;
      request.enrolmentIssuedAt = found.issuedAt;
      return;
    }
    const { principal, user, sessionId } = await options.identity.authenticate(request.project, token);
    request.principal = { ...principal, client };
    request.user = user;
    request.sessionId = sessionId;
  });
}
