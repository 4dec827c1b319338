import { Type } from '@sinclair/typebox';
import { authRequired } from '../../../errors/errors.ts';
import { toClientContext } from '../../client-context.ts';
import { readBearerToken } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { AcceptedSchema, EmailField } from './account-schemas.ts';

/**
 * POST /api/v1/auth/verify-email: 202; a verification mail to the caller's address (bearer),
 * or, without a token, to `{email}` (a user whose project refuses unverified logins has none).
 */
export const requestEmailVerification: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/verify-email',
    {
      // The token is read here rather than by the barrier: without one, the body names the address.
      config: { public: true },
      schema: {
        summary: 'Send an email verification mail',
        description:
          'With a bearer token: to the caller’s address. Without one: to `email`, answered 202 whether or not it has an account. No mail for an address already verified. Same per-address and per-client limits as the password reset.',
        tags: ['auth'],
        body: Type.Object({ email: Type.Optional(EmailField) }),
        response: { 202: AcceptedSchema, ...errorResponses(400, 401, 403, 429) },
      },
      // A bearer call may come with no body at all (the JSON parser makes it undefined).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      // A service key is the app's credential here (app-credentials.ts), not a user's token: a
      // backend names the address in the body.
      const token = request.serviceKeyPrincipal ? undefined : readBearerToken(request);
      const email = token
        ? (await services.identity.authenticate(request.project, token, { unverifiedAllowed: true })).user
            .email
        : request.body.email;
      if (email === undefined) throw authRequired('Send a bearer token, or the email to verify');
      await services.accountMail.requestEmailVerification(request.project, email, toClientContext(request));
      return reply.code(202).send({});
    },
  );
};
