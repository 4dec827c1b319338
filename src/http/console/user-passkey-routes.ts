import { Type } from '@sinclair/typebox';
import { userNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toConsoleActor } from './console-actor.ts';
import { findProject } from './project-view.ts';
import { userParams } from './user-params.ts';

/** GET /console/api/projects/:projectId/users/:userId/passkeys (issue 41): a user's passkeys, for the user page. */
const listUserPasskeys: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/users/:userId/passkeys',
    { schema: { hide: true, params: userParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const user = await services.repositories.users.findById(project.id, request.params.userId);
      if (!user) throw userNotFound();
      return { passkeys: await services.passkeyRegistration.list(project.id, user.id) };
    },
  );
};

/** DELETE /console/api/projects/:projectId/users/:userId/passkeys/:id (issue 41): `user.passkey_removed` names the operator. */
const removeUserPasskey: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/users/:userId/passkeys/:id',
    {
      schema: {
        hide: true,
        params: Type.Composite([userParams, Type.Object({ id: Type.String({ maxLength: 64 }) })]),
      },
    },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const user = await services.repositories.users.findById(project.id, request.params.userId);
      if (!user) throw userNotFound();
      await services.passkeyRegistration.remove(user, request.params.id, toConsoleActor(request));
      return reply.code(204).send();
    },
  );
};

/** The console's routes of a user's passkeys. */
export const userPasskeyRoutes = [listUserPasskeys, removeUserPasskey];
