import { resetFactors } from '../../domain/mfa/reset-factors.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/**
 * POST /console/api/projects/:projectId/users/:userId/mfa-reset: removes the user's second
 * factors and recovery codes (issue 41: a lost authenticator); `user.mfa_disabled` names the operator.
 */
export const resetUserMfa: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/users/:userId/mfa-reset',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const user = await services.repositories.users.findById(project.id, request.params.userId);
      if (!user) throw userNotFound();
      const at = services.clock.now();
      const reset = await resetFactors(services.repositories.mfa, user, toConsoleActor(request), at);
      return { reset, mfa: { totp: false } };
    },
  );
};
