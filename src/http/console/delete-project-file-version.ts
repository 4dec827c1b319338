import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';
import { versionParams } from './version-params.ts';

/**
 * DELETE /console/api/projects/:projectId/files/:fileId/versions/:versionId: an earlier version
 * and (unless another record names them) its bytes; the current one is refused, as in the API.
 */
export const deleteProjectFileVersion: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/files/:fileId/versions/:versionId',
    { schema: { hide: true, params: versionParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const { fileId, versionId } = request.params;
      await services.fileVersions.delete(operatorPrincipal(project, request.operator!.id), fileId, versionId);
      return reply.code(204).send();
    },
  );
};
