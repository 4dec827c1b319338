import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';

/** DELETE /console/api/projects/:projectId/files/:fileId: to the trash (or for good, with trashRetentionDays=0), as its admin would. */
export const deleteProjectFile: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/files/:fileId',
    { schema: { hide: true, params: fileParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      await services.fileOrganizer.delete(
        operatorPrincipal(project, request.operator!.id),
        request.params.fileId,
      );
      return reply.code(204).send();
    },
  );
};
