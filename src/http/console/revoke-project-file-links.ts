import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';

/** POST /console/api/projects/:projectId/files/:fileId/revoke-links: every link handed out stops. */
export const revokeProjectFileLinks: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/files/:fileId/revoke-links',
    { schema: { hide: true, params: fileParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      await services.fileSharing.revokeLinks(
        operatorPrincipal(project, request.operator!.id),
        request.params.fileId,
      );
      return reply.code(204).send();
    },
  );
};
