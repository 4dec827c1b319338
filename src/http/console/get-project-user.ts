import { toUserView } from '../../domain/identity/user-view.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/**
 * GET /console/api/projects/:projectId/users/:userId: one user with their usage and the
 * identities that sign them in at providers (issue 37; the console's user page).
 */
export const getProjectUser: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/users/:userId',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const user = await services.repositories.users.findById(project.id, request.params.userId);
      if (!user) throw userNotFound();
      const [usage, identities, totp] = await Promise.all([
        services.repositories.storageUsage.forUsers(project.id, [user.id]),
        services.repositories.userIdentities.listByUser(project.id, user.id),
        services.secondFactors.hasTotp(user),
      ]);
      return {
        user: {
          ...toUserView(user),
          usage: usage.get(user.id) ?? { files: 0, bytes: 0 },
          identities: identities.map((one) => ({
            provider: one.provider,
            id: one.subject,
            displayName: one.displayName,
            email: one.email,
          })),
          // Whether a factor is on (issue 41); never the secret.
          mfa: { totp },
        },
      };
    },
  );
};
