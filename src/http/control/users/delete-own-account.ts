import { Type } from '@sinclair/typebox';
import { deleteOwnAccount as deleteOwn } from '../../../domain/identity/delete-own-account.ts';
import { accountDeletion } from '../../../wiring/account-deletion.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { proofFields } from './proof-fields.ts';

/** DELETE /api/v1/user {password | code | recoveryCode} (bearer): 204, the account and all it holds gone. */
export const deleteOwnAccount: RouteRegistrar = (app, services) => {
  app.delete(
    '/user',
    {
      // No body at all is a call of its own (a recent sign-in is the proof): validated as `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        summary: 'Delete the caller’s own account',
        description:
          'The account goes with its sessions, sign-in identities, files (and their bytes, its trash included: storage is freed) and the shares naming it; `user.deleted` is emitted with `method: "self"`. The caller proves it is them: the password (401 INVALID_LOGIN when wrong, counted as a failed login), a second-factor code or recovery code, or no body when the session signed in within 5 minutes (else 403 REAUTHENTICATION_REQUIRED). 403 ACCESS_DENIED where the project’s selfDeletion setting is off, for a service key, and for a trusted issuer’s token (no session: its issuer keeps the account).',
        tags: ['users'],
        body: Type.Object(proofFields),
        response: { 204: { description: 'deleted' }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await deleteOwn(
        { deletion: accountDeletion(services), reauthentication: services.reauthentication },
        {
          project: request.project,
          caller: toUserCaller(request),
          proof: request.body,
          client: toClientContext(request),
        },
      );
      return reply.code(204).send();
    },
  );
};
