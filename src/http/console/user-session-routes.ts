import { Type } from '@sinclair/typebox';
import type { User } from '../../domain/identity/user-repository.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import { toSessionView } from '../control/users/session-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

const sessionParams = Type.Object({ ...userParams.properties, sessionId: Type.String({ maxLength: 64 }) });

async function getUser(services: Services, params: { projectId: string; userId: string }): Promise<User> {
  const project = await findProject(services, params.projectId);
  const user = await services.repositories.users.findById(project.id, params.userId);
  if (!user) throw userNotFound();
  return user;
}

/** GET /console/api/projects/:projectId/users/:userId/sessions: the user's live sessions, newest first. */
const listProjectUserSessions: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/users/:userId/sessions',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const user = await getUser(services, request.params);
      return { sessions: (await services.sessions.list(user)).map(toSessionView) };
    },
  );
};

/** DELETE …/sessions/:sessionId: ends one, as the user's logout would (404 SESSION_NOT_FOUND for none of theirs). */
const endProjectUserSession: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/users/:userId/sessions/:sessionId',
    { schema: { hide: true, params: sessionParams } },
    async (request, reply) => {
      const user = await getUser(services, request.params);
      await services.sessions.end(user, request.params.sessionId, toConsoleActor(request));
      return reply.code(204).send();
    },
  );
};

/** DELETE …/sessions: ends every session of the user (the operator has none of theirs to keep). */
const endProjectUserSessions: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/users/:userId/sessions',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const user = await getUser(services, request.params);
      return { sessionsEnded: await services.sessions.endAll(user, toConsoleActor(request)) };
    },
  );
};

/**
 * The console's view of a user's sessions (issue 41, item 6): the operator lists and ends them
 * through UserSessions, as the user would; each ended one is a `user.session_ended` whose actor
 * is the operator.
 */
export const userSessionRoutes: RouteRegistrar[] = [
  listProjectUserSessions,
  endProjectUserSession,
  endProjectUserSessions,
];
