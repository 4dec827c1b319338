import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Authenticated } from '../../../domain/identity/session-types.ts';
import { toClientContext } from '../../client-context.ts';
import { readBearerToken } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TokenField } from '../accounts/account-schemas.ts';

/**
 * POST /api/v1/user/email/confirm {token} (app credentials; a bearer optional): 204, the
 * address switched. Every session of the account ends but the caller's, when the call carries
 * a bearer of that account (the app where the user is signed in); without one, all of them.
 */
export const confirmEmailChange: RouteRegistrar = (app, services) => {
  app.post(
    '/user/email/confirm',
    {
      config: { public: true },
      schema: {
        summary: 'Confirm an email change with the new address’s token',
        description:
          'Spends the token (once): the account’s address becomes the new one (verified), every other session of the account ends (all of them when the call carries no bearer token of the account), `user.email_changed` is emitted, and the old address gets a link that undoes the change for 7 days. 409 EMAIL_TAKEN when another account took the address meanwhile (the token stays unspent). A wrong, spent, replaced or expired token, or one whose account changed its address since, is 400 INVALID_TOKEN.',
        tags: ['users'],
        body: Type.Object({ token: TokenField }),
        response: { 204: { description: 'changed' }, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      await services.emailChange.confirmChange(
        request.project,
        request.body.token,
        toClientContext(request),
        await optionalCaller(request, services.identity),
      );
      return reply.code(204).send();
    },
  );
};

/** The bearer's session where the public call carries a valid one; a bad one counts as none. */
async function optionalCaller(
  request: FastifyRequest,
  identity: { authenticate(project: FastifyRequest['project'], token: string): Promise<Authenticated> },
): Promise<Authenticated | undefined> {
  const token = readBearerToken(request);
  if (token === undefined || request.serviceKeyPrincipal) return undefined;
  try {
    return await identity.authenticate(request.project, token);
  } catch {
    return undefined;
  }
}
