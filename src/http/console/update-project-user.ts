import { Type } from '@sinclair/typebox';
import { setAccountEnabled, setAccountRole } from '../../domain/identity/accounts.ts';
import { toUserView } from '../../domain/identity/user-view.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/**
 * PATCH /console/api/projects/:projectId/users/:userId {role?, enabled?}: as `coffer user
 * set-role` and `disable|enable`; every process sees it at its next access-epoch read.
 */
export const updateProjectUser: RouteRegistrar = (app, services) => {
  app.patch(
    '/projects/:projectId/users/:userId',
    {
      schema: {
        hide: true,
        params: userParams,
        body: Type.Object(
          { role: Type.Optional(Type.String({ maxLength: 64 })), enabled: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { userId } = request.params;
      const { users } = services.repositories;
      let user = await users.findById(project.id, userId);
      if (!user) throw userNotFound();
      const by = toConsoleActor(request);
      if (request.body.role !== undefined)
        user = await setAccountRole(users, project, userId, request.body.role, by);
      if (request.body.enabled !== undefined)
        user = await setAccountEnabled(users, project, userId, request.body.enabled, by);
      if (!user) throw userNotFound();
      return { user: toUserView(user) };
    },
  );
};
