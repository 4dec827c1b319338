import type { RouteRegistrar } from '../route-context.ts';
import { toFileView } from '../wire/to-wire.ts';
import { fileParams } from './file-params.ts';
import { findProjectFile } from './project-view.ts';

/** GET /console/api/projects/:projectId/files/:fileId: the record, its ACL and metadata. */
export const getProjectFile: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const file = await findProjectFile(services, request.params.projectId, request.params.fileId);
      return { file: toFileView(file) };
    },
  );
};
