import type { RouteRegistrar } from '../route-context.ts';
import { sessionCookie } from './session-cookie.ts';

/** DELETE /console/api/session: signs out (the session row goes, the cookie is cleared). */
export const signOut: RouteRegistrar = (app, services) => {
  app.delete('/session', { schema: { hide: true } }, async (request, reply) => {
    await services.operators.signOut(request.cookies[sessionCookie.name]);
    sessionCookie.clear(request, reply);
    return reply.code(204).send();
  });
};
