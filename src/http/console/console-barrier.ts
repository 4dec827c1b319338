import { accessDenied } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import type { TypedApp } from '../route-context.ts';
import { sessionCookie } from './session-cookie.ts';

/** The requests that need no session: signing in, with a password or a one-time link. */
const signInRoutes = new Set(['POST /console/api/session', 'POST /console/api/session/link']);

/**
 * Every console request: answers are never cached nor framed; a request that changes
 * anything must carry `X-Coffer-Console: 1` (a header no cross-site form or simple request can
 * send) and, when the browser names its Origin, come from this server's own; then every route
 * but sign-in needs a live session cookie (AUTH_REQUIRED otherwise). The cookie is SameSite=Strict
 * too: each of the three stops a cross-site request on its own.
 */
export function installConsoleBarrier(scope: TypedApp, services: Services): void {
  scope.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-frame-options', 'DENY');
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (changes && request.headers['x-coffer-console'] !== '1')
      throw accessDenied('Console requests that change anything need the header X-Coffer-Console: 1');
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request.protocol, request.host, services))
      throw accessDenied('Console requests come from the console itself');
  });
  scope.addHook('preHandler', async (request) => {
    if (signInRoutes.has(`${request.method} ${request.routeOptions.url}`)) return;
    request.operator = await services.operators.authenticate(request.cookies[sessionCookie.name]);
  });
}

function isOwnOrigin(origin: string, protocol: string, host: string, services: Services): boolean {
  if (origin === `${protocol}://${host}`) return true;
  try {
    return origin === new URL(services.publicUrl.value).origin;
  } catch {
    return false;
  }
}
