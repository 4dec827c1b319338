import { Type } from '@sinclair/typebox';
import { maxTrashPageSize } from '../../domain/trash/trash.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';
import { toTrashViews } from './trash-params.ts';

/**
 * GET /console/api/projects/:projectId/trash?owner=&cursor=&limit=: the project's trash, every
 * owner's (or `owner`'s, by email or id), most recently trashed first, a keyset page at a time
 * (`nextCursor` of the page before): Trash.listProject as the project's admin.
 */
export const listProjectTrash: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/trash',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object(
          {
            owner: Type.Optional(Type.String({ maxLength: 320 })),
            cursor: Type.Optional(Type.String({ maxLength: 4096 })),
            limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const pageSize = Number(request.query.limit ?? 50);
      if (pageSize < 1 || pageSize > maxTrashPageSize)
        throw validationFailed(`limit must be from 1 to ${maxTrashPageSize}`);
      const { owner, cursor } = request.query;
      const ownerId = owner ? (await findFolderOwner(services, project.id, owner)).id : undefined;
      const page = await services.trash.listProject(operatorPrincipal(project, request.operator!.id), {
        owner: ownerId,
        pageSize,
        cursor,
      });
      return {
        items: await toTrashViews(services, project.id, page.items),
        nextCursor: page.nextCursor ?? null,
      };
    },
  );
};
