import { Type } from '@sinclair/typebox';
import type { BrowsedFolder } from '../../domain/folders/folder-browsing.ts';
import { isAppError } from '../../errors/app-error.ts';
import { validationFailed } from '../../errors/errors.ts';
import { toFolderPageView } from '../control/folders/browse-folder.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { toFileViewsWithPeople } from './file-people.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

const maxPageSize = 200;

/**
 * GET /console/api/projects/:projectId/folders?owner=&path=&cursor=&limit= (issue 36): one
 * owner's folder as GET /api/v1/folders answers it to the project's admin (its subtree's counts,
 * its subfolders with theirs, a page of its direct files), plus `ownerEmail` and the files'
 * `people`. `owner` is an email or a user id, as the files filter takes it.
 */
export const browseProjectFolder: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/folders',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({
          owner: Type.String({ minLength: 1, maxLength: 320 }),
          path: Type.Optional(Type.String({ maxLength: 1025 })),
          cursor: Type.Optional(Type.String({ maxLength: 2048 })),
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
        }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const pageSize = Number(request.query.limit ?? 50);
      if (pageSize < 1 || pageSize > maxPageSize)
        throw validationFailed(`limit must be from 1 to ${maxPageSize}`);
      const owner = await findFolderOwner(services, project.id, request.query.owner);
      const { path, cursor } = request.query;
      const page = await services.folderBrowsing
        .browse(operatorPrincipal(project, request.operator!.id), { owner: owner.id, path, cursor, pageSize })
        .catch((error: unknown) => {
          // The API tells an admin nothing of another owner's empty root; the console has
          // found the owner already, and an owner without files is no error on its screen.
          if (isRootPath(path) && isAppError(error) && error.code === 'FOLDER_NOT_FOUND')
            return emptyRoot(owner.id);
          throw error;
        });
      const files = await toFileViewsWithPeople(services, project.id, page.files);
      return { ...toFolderPageView(page), ownerEmail: owner.email, files };
    },
  );
};

const isRootPath = (path: string | undefined) => path === undefined || path === '';

function emptyRoot(ownerId: string): BrowsedFolder {
  return {
    ...{ ownerId, path: '', fileCount: 0, totalBytes: 0 },
    ...{ subfolders: [], subfoldersTruncated: false, files: [], nextCursorAfter: undefined },
  };
}
