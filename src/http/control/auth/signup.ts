import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from './to-login-result.ts';

/**
 * POST /api/v1/auth/signup: a new account with role `user`, answered like a login; where the
 * project requires verified addresses, a verification mail goes too.
 */
export const signup: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/signup',
    {
      config: { public: true },
      schema: {
        summary: 'Sign up',
        tags: ['auth'],
        body: Type.Object({
          email: Type.String({ maxLength: 320 }),
          password: Type.String({ maxLength: 1024, description: 'at least 8 characters' }),
          displayName: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { email, password, displayName } = request.body;
      const client = toClientContext(request);
      const user = await services.identity.signup(request.project, { email, password, displayName }, client);
      // A project that signs in verified addresses only mails the link at once (issue 23).
      if (request.project.settings.requireVerifiedEmail)
        await services.accountMail.sendEmailVerification(request.project, user);
      return toLoginResult(
        await services.identity.signIn(user, request.project, client, { method: 'password' }),
      );
    },
  );
};
