import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProject } from './project-view.ts';

/** POST /console/api/projects/:projectId/files/:fileId/verify {etag}: as spec 4.2, by the project's admin. */
export const verifyProjectUpload: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/files/:fileId/verify',
    {
      schema: {
        hide: true,
        params: fileParams,
        body: Type.Object(
          { etag: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const file = await services.fileUploads.verifyUpload(
        principal,
        request.params.fileId,
        request.body.etag,
      );
      return { file: await toFileViewWithPeople(services, project.id, file) };
    },
  );
};
