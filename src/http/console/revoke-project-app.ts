import { Type } from '@sinclair/typebox';
import { revokeAppCredential } from '../../domain/identity/app-credentials.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';

/**
 * DELETE /console/api/projects/:projectId/apps/:appId: refused at once by every process (the
 * access epoch); the last live credential is kept (as `coffer app revoke` without --force).
 */
export const revokeProjectApp: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/apps/:appId',
    {
      schema: {
        hide: true,
        params: Type.Object({
          projectId: Type.String({ maxLength: 64 }),
          appId: Type.String({ maxLength: 64 }),
        }),
      },
    },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      await revokeAppCredential(services.repositories.appCredentials, project, {
        appId: request.params.appId,
        force: false,
      });
      return reply.code(204).send();
    },
  );
};
