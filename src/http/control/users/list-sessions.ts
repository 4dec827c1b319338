import { Type } from '@sinclair/typebox';
import { sessionListLimit } from '../../../domain/identity/user-sessions.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { SessionSchema, toSessionView } from './session-schemas.ts';

/** GET /api/v1/user/sessions (issue 41, item 4): the caller's live sessions, newest first. */
export const listSessions: RouteRegistrar = (app, services) => {
  app.get(
    '/user/sessions',
    {
      schema: {
        summary: 'List your sessions',
        tags: ['users'],
        response: {
          200: Type.Array(SessionSchema, { maxItems: sessionListLimit }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const caller = toUserCaller(request);
      return (await services.sessions.list(caller.user, caller.sessionId)).map(toSessionView);
    },
  );
};
