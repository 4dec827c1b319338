import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/**
 * POST /console/api/projects/:projectId/folders/delete {owner, path} → {deleted, bytes}: the
 * folder delete of POST /api/v1/folders/delete as the project's admin makes it (every file under
 * the folder, in one transaction). `owner` is an email or a user id.
 */
export const deleteProjectFolder: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/folders/delete',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Object(
          {
            owner: Type.String({ minLength: 1, maxLength: 320 }),
            path: Type.String({ maxLength: 1025 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { id } = await findFolderOwner(services, project.id, request.body.owner);
      const principal = operatorPrincipal(project, request.operator!.id);
      return services.folderDeletion.delete(principal, { owner: id, path: request.body.path });
    },
  );
};
