import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { AcceptedSchema, EmailField } from './account-schemas.ts';

/** POST /api/v1/auth/magic-link {email}: 202 for any address; a sign-in mail where it has an account. */
export const requestMagicLink: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/magic-link',
    {
      config: { public: true },
      schema: {
        summary: 'Send a sign-in link by mail',
        description:
          'Only where the project turned it on (`magicLink=true`; else 403 ACCESS_DENIED). Mails a sign-in link (15 minutes) to an enabled account of this address; 202 whether or not it has one. Same limits as the password reset.',
        tags: ['auth'],
        body: Type.Object({ email: EmailField }),
        response: { 202: AcceptedSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.accountMail.requestMagicLink(
        request.project,
        request.body.email,
        toClientContext(request),
      );
      return reply.code(202).send({});
    },
  );
};
