import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** GET /console/api/projects/:projectId/apps: the live app ids (secrets are stored hashed). */
export const listProjectApps: RouteRegistrar = (app, services) => {
  app.get('/projects/:projectId/apps', { schema: { hide: true, params: projectParams } }, async (request) => {
    const project = await findProject(services, request.params.projectId);
    const credentials = await services.repositories.appCredentials.listByProject(project.id);
    return {
      apps: credentials.map((item) => ({ appId: item.appId, createdAt: item.createdAt.toISOString() })),
    };
  });
};
