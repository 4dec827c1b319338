import { userActor } from '../../../domain/events/user-events.ts';
import { toClientInfo } from '../../../domain/identity/session-types.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/** DELETE /api/v1/user/sessions (issue 41, item 4): ends every session of the caller but the one calling. */
export const endOtherSessions: RouteRegistrar = (app, services) => {
  app.delete(
    '/user/sessions',
    {
      schema: {
        summary: 'End your other sessions',
        tags: ['users'],
        response: { 204: { description: 'every other session ended' }, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = toUserCaller(request);
      const by = userActor(user.id, toClientInfo(toClientContext(request)));
      await services.sessions.endAll(user, by, sessionId);
      return reply.code(204).send();
    },
  );
};
