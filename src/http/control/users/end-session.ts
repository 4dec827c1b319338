import { userActor } from '../../../domain/events/user-events.ts';
import { toClientInfo } from '../../../domain/identity/session-types.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { SessionIdParams } from './session-schemas.ts';

/**
 * DELETE /api/v1/user/sessions/:sessionId (issue 41, item 4): ends one of the caller's
 * sessions as its logout would, at once on every node; 404 SESSION_NOT_FOUND for an id that is
 * not a live session of theirs (another user's answers the same).
 */
export const endSession: RouteRegistrar = (app, services) => {
  app.delete(
    '/user/sessions/:sessionId',
    {
      schema: {
        summary: 'End one of your sessions',
        tags: ['users'],
        params: SessionIdParams,
        response: { 204: { description: 'ended' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { user } = toUserCaller(request);
      const by = userActor(user.id, toClientInfo(toClientContext(request)));
      await services.sessions.end(user, request.params.sessionId, by);
      return reply.code(204).send();
    },
  );
};
