import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { AcceptedSchema, EmailField } from './account-schemas.ts';

/** POST /api/v1/auth/password-reset {email}: 202 for any address; a mail where it has an account. */
export const requestPasswordReset: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/password-reset',
    {
      config: { public: true },
      schema: {
        summary: 'Send a password reset mail',
        description:
          'Mails a link to choose a new password (30 minutes) to an enabled account of this address. Answers 202 whether or not the address has one. At most one mail a minute and five an hour per address (silently); 429 past the client address’s or the project’s daily limit.',
        tags: ['auth'],
        body: Type.Object({ email: EmailField }),
        response: { 202: AcceptedSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.accountMail.requestPasswordReset(
        request.project,
        request.body.email,
        toClientContext(request),
      );
      return reply.code(202).send({});
    },
  );
};
