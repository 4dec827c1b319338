import { Type } from '@sinclair/typebox';
import type { SharedFolder } from '../../domain/folders/folder-sharing.ts';
import type { Services } from '../../services.ts';
import { toFolderSharesView, toShareTarget } from '../control/folders/folder-share-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { emailsOf } from './file-people.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

const owner = Type.String({ minLength: 1, maxLength: 320 });
const path = Type.String({ maxLength: 1025 });

/**
 * The console's folder share dialog (issue 36): GET /console/api/projects/:projectId/folders/shares
 * ?owner=&path=, POST …/folders/share and …/folders/unshare {owner, path, user | role | email}.
 * The folder share routes of /api/v1 as the project's admin calls them (their rules, limits,
 * events and errors), each answering the shares reaching the folder (its own and its
 * ancestors') plus `people`, the email of each user they name. `owner` is an email or a user id.
 */
export const shareProjectFolder: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/folders/shares',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({ owner, path: Type.Optional(path) }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { id } = await findFolderOwner(services, project.id, request.query.owner);
      const principal = operatorPrincipal(project, request.operator!.id);
      const folder = await services.folderSharing.shares(principal, { owner: id, path: request.query.path });
      return toSharesWithPeople(services, project.id, folder);
    },
  );
  for (const action of ['share', 'unshare'] as const) {
    app.post(
      `/projects/:projectId/folders/${action}`,
      {
        schema: {
          hide: true,
          params: projectParams,
          body: Type.Object(
            {
              owner,
              path,
              user: Type.Optional(Type.String({ maxLength: 64 })),
              role: Type.Optional(Type.String({ maxLength: 64 })),
              email: Type.Optional(Type.String({ maxLength: 320 })),
            },
            { additionalProperties: false },
          ),
        },
      },
      async (request) => {
        const project = await findProject(services, request.params.projectId);
        const target = toShareTarget(request.body);
        const { id } = await findFolderOwner(services, project.id, request.body.owner);
        const principal = operatorPrincipal(project, request.operator!.id);
        const change = { owner: id, path: request.body.path, target };
        const folder =
          action === 'share'
            ? await services.folderSharing.share(principal, change)
            : await services.folderSharing.unshare(principal, change);
        return toSharesWithPeople(services, project.id, folder);
      },
    );
  }
};

async function toSharesWithPeople(services: Services, projectId: string, folder: SharedFolder) {
  const users = folder.shares.filter((share) => share.scope === 'user').map((share) => share.identifier);
  const emails = await emailsOf(services, projectId, [folder.ownerId, ...users]);
  return {
    ...toFolderSharesView(folder.ownerId, folder.path, folder.shares),
    people: Object.fromEntries(emails),
  };
}
