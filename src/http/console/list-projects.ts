import type { RouteRegistrar } from '../route-context.ts';

/** GET /console/api/projects: every project with its origins and settings (no secret). */
export const listProjects: RouteRegistrar = (app, services) => {
  app.get('/projects', { schema: { hide: true } }, async () => {
    const projects = await services.repositories.projects.list();
    return {
      projects: projects.map((project) => ({
        id: project.id,
        name: project.name,
        createdAt: project.createdAt.toISOString(),
        allowedOrigins: project.allowedOrigins,
        settings: project.settings,
      })),
    };
  });
};
