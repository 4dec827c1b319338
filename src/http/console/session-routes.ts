import { Type } from '@sinclair/typebox';
import type { Operator } from '../../domain/ports.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { sessionCookie } from './session-cookie.ts';

const operatorView = (operator: Operator) => ({ operator: { id: operator.id, email: operator.email } });

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
      return operatorView(session.operator);
    },
  );
};

/** GET /console/api/session: who is signed in. */
export const getSession: RouteRegistrar = (app) => {
  app.get('/session', { schema: { hide: true } }, async (request) => operatorView(request.operator!));
};

/** DELETE /console/api/session: signs out (the session row goes, the cookie is cleared). */
export const signOut: RouteRegistrar = (app, services) => {
  app.delete('/session', { schema: { hide: true } }, async (request, reply) => {
    await services.operators.signOut(request.cookies[sessionCookie.name]);
    sessionCookie.clear(request, reply);
    return reply.code(204).send();
  });
};
