import { Type } from '@sinclair/typebox';
import { userActor } from '../../../domain/events/user-events.ts';
import { toClientInfo } from '../../../domain/identity/session-types.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/** DELETE /api/v1/user/passkeys/:id (issue 41): 204; it signs in no more; `user.passkey_removed`. */
export const removePasskey: RouteRegistrar = (app, services) => {
  app.delete(
    '/user/passkeys/:id',
    {
      schema: {
        summary: 'Remove a passkey',
        tags: ['passkeys'],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: { description: 'removed' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { user } = toUserCaller(request);
      const by = userActor(user.id, toClientInfo(toClientContext(request)));
      await services.passkeyRegistration.remove(user, request.params.id, by);
      return reply.code(204).send();
    },
  );
};
