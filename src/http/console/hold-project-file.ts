import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProject, findProjectFile } from './project-view.ts';

/** The API's bounds on a hold's reason (src/http/control/files/hold-file.ts). */
const holdBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);

/**
 * POST /console/api/projects/:projectId/files/:fileId/hold {reason} puts a legal hold on the
 * file, DELETE lifts it: FileHolds as the project's admin (the operator's id is who held it).
 * Both answer the file as it now is.
 */
export const holdProjectFile: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/files/:fileId/hold',
    { schema: { hide: true, params: fileParams, body: holdBody } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const held = await services.fileHolds.hold(principal, request.params.fileId, request.body.reason);
      return { file: await toFileViewWithPeople(services, project.id, held) };
    },
  );
  app.delete(
    '/projects/:projectId/files/:fileId/hold',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      await services.fileHolds.release(
        operatorPrincipal(project, request.operator!.id),
        request.params.fileId,
      );
      // release() answers nothing (a file not held stays as it was): the record as it now is.
      const file = await findProjectFile(services, project.id, request.params.fileId);
      return { file: await toFileViewWithPeople(services, project.id, file) };
    },
  );
};
