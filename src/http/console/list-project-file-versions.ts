import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { emailsOf } from './file-people.ts';
import { findProject } from './project-view.ts';

/**
 * GET /console/api/projects/:projectId/files/:fileId/versions: the current version, then the
 * earlier ones, newest first (FileVersions.list as the project's admin), with `people`: the
 * email of each account that made one, so the page shows people, not ids.
 */
export const listProjectFileVersions: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId/versions',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const versions = await services.fileVersions.list(principal, request.params.fileId);
      const emails = await emailsOf(
        services,
        project.id,
        versions.map((version) => version.createdBy),
      );
      return {
        versions: versions.map((version) => ({
          versionId: version.versionId,
          etag: version.etag,
          size: version.content.sizeBytes,
          contentType: version.content.contentType,
          createdAt: version.createdAt.toISOString(),
          createdBy: version.createdBy,
          current: version.current,
        })),
        people: Object.fromEntries(emails),
      };
    },
  );
};
