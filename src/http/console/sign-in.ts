import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { toOperatorView } from './operator-view.ts';
import { sessionCookie } from './session-cookie.ts';

/** POST /console/api/session {email, password}: signs an operator in (the cookie holds the session). */
export const signIn: RouteRegistrar = (app, services) => {
  app.post(
    '/session',
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 320 }),
            password: Type.String({ minLength: 1, maxLength: 1024 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const session = await services.operators.signIn({ ...request.body, clientAddress: request.ip });
      sessionCookie.set(request, reply, session.token);
      return toOperatorView(session.operator);
    },
  );
};
