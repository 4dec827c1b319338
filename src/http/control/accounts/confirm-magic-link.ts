import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from '../auth/to-login-result.ts';
import { TokenField } from './account-schemas.ts';

/** POST /api/v1/auth/magic-link/confirm {token}: the login result. */
export const confirmMagicLink: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/magic-link/confirm',
    {
      config: { public: true },
      schema: {
        summary: 'Sign in with a sign-in mail’s token',
        description:
          'Spends the token (once) and answers as login does; the address counts as verified. A wrong, spent, replaced or expired token is 400 INVALID_TOKEN; a disabled account 403 ACCOUNT_DISABLED (its token unspent).',
        tags: ['auth'],
        body: Type.Object({ token: TokenField }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const session = await services.accountMail.confirmMagicLink(
        request.project,
        request.body.token,
        toClientContext(request),
      );
      return toLoginResult(session);
    },
  );
};
