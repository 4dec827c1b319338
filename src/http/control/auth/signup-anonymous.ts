import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from './to-login-result.ts';

/**
 * POST /api/v1/auth/signup/anonymous (the original service's guest accounts): no body, or an
 * empty JSON object; a new account of role `anonymous`, answered like a login. Only where the
 * project's `anonymousSignup` setting is true, else 403 ACCESS_DENIED.
 */
export const signupAnonymous: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/signup/anonymous',
    {
      config: { public: true },
      schema: {
        summary: 'Sign up anonymously (role "anonymous"; where the project allows it)',
        tags: ['auth'],
        body: Type.Object({}, { description: 'no body, or an empty object' }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
      // No body at all is the usual call (the JSON parser makes an empty one undefined).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const client = toClientContext(request);
      const user = await services.identity.signupAnonymous(request.project, client);
      return toLoginResult(
        await services.identity.startSession(user, request.project, client, { method: 'anonymous' }),
      );
    },
  );
};
