import { fileNotFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toFileView } from '../wire/to-wire.ts';
import { fileParams } from './file-params.ts';
import { findProject } from './project-view.ts';

/** GET /console/api/projects/:projectId/files/:fileId: the record, its ACL and metadata. */
export const getProjectFile: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const file = await services.repositories.files.findById(request.params.fileId);
      if (!file || file.projectId !== project.id) throw fileNotFound();
      return { file: toFileView(file) };
    },
  );
};
