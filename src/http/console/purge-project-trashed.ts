import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';
import { trashedParams } from './trash-params.ts';

/** DELETE /console/api/projects/:projectId/trash/:fileId: purged at once with its versions and bytes (not when held). */
export const purgeProjectTrashed: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/trash/:fileId',
    { schema: { hide: true, params: trashedParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      await services.trash.purge(operatorPrincipal(project, request.operator!.id), request.params.fileId);
      return reply.code(204).send();
    },
  );
};
