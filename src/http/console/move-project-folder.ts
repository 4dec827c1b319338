import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/**
 * POST /console/api/projects/:projectId/folders/move {owner, from, to} → {moved}: the folder
 * move of POST /api/v1/folders/move as the project's admin makes it (one transaction, all or
 * nothing). `owner` is an email or a user id.
 */
export const moveProjectFolder: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/folders/move',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Object(
          {
            owner: Type.String({ minLength: 1, maxLength: 320 }),
            from: Type.String({ maxLength: 1025 }),
            to: Type.String({ maxLength: 1025 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { owner, from, to } = request.body;
      const { id } = await findFolderOwner(services, project.id, owner);
      return services.folderMoves.move(operatorPrincipal(project, request.operator!.id), {
        owner: id,
        from,
        to,
      });
    },
  );
};
