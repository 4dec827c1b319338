import { deleteAccount } from '../../domain/identity/delete-account.ts';
import { accountDeletion } from '../../wiring/account-deletion.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/** DELETE /console/api/projects/:projectId/users/:userId: with their files, bytes, shares and sessions. */
export const deleteProjectUser: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/users/:userId',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const removed = await deleteAccount(
        accountDeletion(services),
        project,
        request.params.userId,
        toConsoleActor(request),
      );
      return { deleted: true, ...removed };
    },
  );
};
