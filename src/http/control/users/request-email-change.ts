import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { AcceptedSchema } from '../accounts/account-schemas.ts';
import { proofFields } from './proof-fields.ts';

/** POST /api/v1/user/email {newEmail, password} (bearer): 202; the new address gets a link. */
export const requestEmailChange: RouteRegistrar = (app, services) => {
  app.post(
    '/user/email',
    {
      schema: {
        summary: 'Change the account’s email address',
        description:
          'Mails the new address a link that makes the change (24 hours). The caller proves it is them first: the password (counted as a failed login when wrong; 401 INVALID_LOGIN), a second-factor code, or a sign-in within 5 minutes (else 403 REAUTHENTICATION_REQUIRED). Answers 202 whether or not another account has the new address (that one gets no mail). The account mails’ limits apply: one mail a minute and five an hour per address (silently); 429 past the client address’s or the project’s daily limit.',
        tags: ['users'],
        body: Type.Object({
          newEmail: Type.String({ maxLength: 320, description: 'The address to change to' }),
          ...proofFields,
        }),
        response: { 202: AcceptedSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.emailChange.requestChange(
        toUserCaller(request),
        request.project,
        request.body,
        toClientContext(request),
      );
      return reply.code(202).send({});
    },
  );
};
