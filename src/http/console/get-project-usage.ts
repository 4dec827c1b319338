import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** GET /console/api/projects/:projectId/usage?limit=: the project's usage and its heaviest users. */
export const getProjectUsage: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/usage',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({ limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })) }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { storageUsage } = services.repositories;
      const [usage, users] = await Promise.all([
        storageUsage.find({ projectId: project.id, userId: '' }),
        storageUsage.topUsers(project.id, Number(request.query.limit ?? 20)),
      ]);
      return { files: usage.project.files, bytes: usage.project.bytes, users };
    },
  );
};
