import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProject } from './project-view.ts';
import { trashedParams } from './trash-params.ts';

const restoreBody = Type.Object(
  { filePath: Type.Optional(Type.String({ maxLength: 1024 })) },
  { additionalProperties: false },
);

/**
 * POST /console/api/projects/:projectId/trash/:fileId/restore {filePath?}: back at the path it
 * was deleted from, or at `filePath` (FILE_EXISTS when a file holds it), as the project's admin
 * would restore it. Answers the file as it now is.
 */
export const restoreProjectTrashed: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/trash/:fileId/restore',
    {
      schema: { hide: true, params: trashedParams, body: restoreBody },
      // No body is a restore at the old path, as the API's.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { filePath } = request.body;
      const file = await services.trash.restore(
        operatorPrincipal(project, request.operator!.id),
        request.params.fileId,
        filePath ? { filePath } : {},
      );
      return { file: await toFileViewWithPeople(services, project.id, file) };
    },
  );
};
