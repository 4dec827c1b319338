import type { RouteRegistrar } from '../route-context.ts';
import { toProjectView } from './project-view.ts';

/** GET /console/api/projects: every project with its origins and settings (no secret). */
export const listProjects: RouteRegistrar = (app, services) => {
  app.get('/projects', { schema: { hide: true } }, async () => ({
    projects: (await services.repositories.projects.list()).map(toProjectView),
  }));
};
