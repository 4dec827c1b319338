import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProject } from './project-view.ts';
import { versionParams } from './version-params.ts';

/**
 * POST /console/api/projects/:projectId/files/:fileId/versions/:versionId/restore: that
 * version's bytes become a new current version, as the project's admin would make it (a held
 * file refuses: FILE_ON_HOLD). Answers the file as it now is.
 */
export const restoreProjectFileVersion: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/files/:fileId/versions/:versionId/restore',
    { schema: { hide: true, params: versionParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { fileId, versionId } = request.params;
      const principal = operatorPrincipal(project, request.operator!.id);
      const file = await services.fileVersions.restore(principal, fileId, versionId);
      return { file: await toFileViewWithPeople(services, project.id, file) };
    },
  );
};
