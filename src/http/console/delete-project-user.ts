import { setTimeout as sleep } from 'node:timers/promises';
import { accessEpochCheckIntervalMs } from '../../domain/identity/access-epoch-watch.ts';
import { deleteAccount } from '../../domain/identity/delete-account.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/** DELETE /console/api/projects/:projectId/users/:userId: with their files, bytes, shares and sessions. */
export const deleteProjectUser: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/users/:userId',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { repositories } = services;
      const removed = await deleteAccount(
        {
          users: repositories.users,
          refreshTokens: repositories.refreshTokens,
          files: repositories.files,
          fileService: services.files,
          // As `coffer user delete`: every process has re-read the access epoch before the files go.
          settle: () => sleep(accessEpochCheckIntervalMs * 4),
        },
        project,
        request.params.userId,
      );
      return { deleted: true, ...removed };
    },
  );
};
