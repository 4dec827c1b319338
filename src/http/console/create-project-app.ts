import { createAppCredential } from '../../domain/identity/app-credentials.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** POST /console/api/projects/:projectId/apps: another live app credential; its secret is shown this once. */
export const createProjectApp: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/apps',
    { schema: { hide: true, params: projectParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const issued = await createAppCredential(services.repositories.appCredentials, project, services.clock);
      return reply.code(201).send(issued);
    },
  );
};
