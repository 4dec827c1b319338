import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { toOperatorView } from './operator-view.ts';
import { sessionCookie } from './session-cookie.ts';

/**
 * POST /console/api/session/link {token}: signs in with a one-time link from `coffer console`
 * (the page reads the token from the link's fragment, which no browser sends to a server).
 */
export const signInWithLink: RouteRegistrar = (app, services) => {
  app.post(
    '/session/link',
    {
      schema: {
        hide: true,
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 128 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const session = await services.operators.signInWithLink({
        token: request.body.token,
        clientAddress: request.ip,
      });
      sessionCookie.set(request, reply, session.token);
      return toOperatorView(session.operator);
    },
  );
};
