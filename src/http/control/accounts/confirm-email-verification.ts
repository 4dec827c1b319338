import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TokenField } from './account-schemas.ts';

/** POST /api/v1/auth/verify-email/confirm {token}: 204; the profile then shows the address verified. */
export const confirmEmailVerification: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/verify-email/confirm',
    {
      config: { public: true },
      schema: {
        summary: 'Confirm an email address with a verification mail’s token',
        description:
          'Spends the token (once); GET /user then shows emails[0].verified true. A wrong, spent, replaced or expired token, or one sent to an address the account no longer has, is 400 INVALID_TOKEN.',
        tags: ['auth'],
        body: Type.Object({ token: TokenField }),
        response: { 204: { description: 'verified' }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.accountMail.confirmEmailVerification(
        request.project,
        request.body.token,
        toClientContext(request),
      );
      return reply.code(204).send();
    },
  );
};
