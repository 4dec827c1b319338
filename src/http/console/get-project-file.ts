import type { RouteRegistrar } from '../route-context.ts';
import { fileParams } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProjectFile } from './project-view.ts';

/** GET /console/api/projects/:projectId/files/:fileId: the record, its ACL and metadata, with the emails of the people it names. */
export const getProjectFile: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const file = await findProjectFile(services, request.params.projectId, request.params.fileId);
      return { file: await toFileViewWithPeople(services, file.projectId, file) };
    },
  );
};
