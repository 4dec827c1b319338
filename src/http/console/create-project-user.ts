import { Type } from '@sinclair/typebox';
import { createAccount } from '../../domain/identity/accounts.ts';
import { toUserView } from '../../domain/identity/user-view.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** POST /console/api/projects/:projectId/users {email, password, role?}: as `coffer user create`. */
export const createProjectUser: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/users',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Object(
          {
            email: Type.String({ maxLength: 320 }),
            password: Type.String({ maxLength: 1024 }),
            role: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const user = await createAccount(
        services.repositories.users,
        project,
        request.body,
        toConsoleActor(request),
      );
      return reply.code(201).send({ user: toUserView(user) });
    },
  );
};
