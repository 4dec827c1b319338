import { Type } from '@sinclair/typebox';
import { resetPassword } from '../../domain/identity/accounts.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/** POST /console/api/projects/:projectId/users/:userId/password {password}: ends their sessions. */
export const resetUserPassword: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/users/:userId/password',
    {
      schema: {
        hide: true,
        params: userParams,
        body: Type.Object({ password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const input = { userId: request.params.userId, password: request.body.password };
      const sessionsRevoked = await resetPassword(
        services.repositories,
        project,
        input,
        toConsoleActor(request),
      );
      return { sessionsRevoked };
    },
  );
};
