import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** One owner at a time: emptying every owner's trash at once is one click too far. */
const emptyBody = Type.Object(
  { owner: Type.String({ minLength: 1, maxLength: 320 }) },
  { additionalProperties: false },
);

/**
 * POST /console/api/projects/:projectId/trash/empty {owner}: purges one owner's (by email or
 * id) whole trash, held files excepted, as the project's admin would → {purged}.
 */
export const emptyProjectTrash: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/trash/empty',
    { schema: { hide: true, params: projectParams, body: emptyBody } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const owner = await findFolderOwner(services, project.id, request.body.owner);
      const principal = operatorPrincipal(project, request.operator!.id);
      return { purged: await services.trash.empty(principal, { owner: owner.id }) };
    },
  );
};
