import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from './to-login-result.ts';

/** Spec 4.6: POST /api/v1/auth/login — app credentials, no token (a stale one is ignored). */
export const login: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        summary: 'Log in',
        tags: ['auth'],
        body: Type.Object({
          email: Type.String({ maxLength: 320 }),
          password: Type.String({ maxLength: 1024 }),
        }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const client = toClientContext(request);
      return toLoginResult(await services.identity.login(request.project, request.body, client));
    },
  );
};
