import { userNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/**
 * POST /console/api/projects/:projectId/users/:userId/reset-mail: a password reset mail to the
 * user (issue 23), as if they had asked; their password and sessions stay until they follow it.
 */
export const sendUserResetMail: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/users/:userId/reset-mail',
    { schema: { hide: true, params: userParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const user = await services.repositories.users.findById(project.id, request.params.userId);
      if (!user) throw userNotFound();
      await services.accountMail.sendPasswordReset(project, user);
      return reply.code(202).send({ to: user.email });
    },
  );
};
