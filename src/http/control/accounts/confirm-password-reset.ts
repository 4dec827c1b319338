import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TokenField } from './account-schemas.ts';

/** POST /api/v1/auth/password-reset/confirm {token, newPassword}: 204; every session of the account ends. */
export const confirmPasswordReset: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/password-reset/confirm',
    {
      config: { public: true },
      schema: {
        summary: 'Choose a new password with a reset mail’s token',
        description:
          'Spends the token (once): the password changes, every session of the account ends (refresh tokens and the access tokens issued with them), and the address counts as verified. A refused password leaves the token unspent. A wrong, spent, replaced or expired token is 400 INVALID_TOKEN.',
        tags: ['auth'],
        body: Type.Object({
          token: TokenField,
          newPassword: Type.String({
            maxLength: 1024,
            description: '8 to 1024 characters, not a common password',
          }),
        }),
        response: { 204: { description: 'changed' }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.accountMail.confirmPasswordReset(
        request.project,
        request.body,
        toClientContext(request),
      );
      return reply.code(204).send();
    },
  );
};
