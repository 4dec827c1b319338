import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FolderOwner } from './folder-owner-schema.ts';
import { FolderSharesAnswer, toFolderSharesView } from './folder-share-schemas.ts';

/** GET /api/v1/folders/shares?owner=&path= (issue 36): the shares reaching a folder (owner or admin). */
export const listFolderShares: RouteRegistrar = (app, services) => {
  app.get(
    '/folders/shares',
    {
      schema: {
        summary: 'The shares reaching a folder',
        tags: ['folders'],
        querystring: Type.Object({
          owner: FolderOwner,
          path: Type.Optional(
            Type.String({ maxLength: 1024, description: "the folder ('' or absent: the root)" }),
          ),
        }),
        response: { 200: FolderSharesAnswer, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const folder = await services.folderSharing.shares(request.principal, request.query);
      return toFolderSharesView(folder.ownerId, folder.path, folder.shares);
    },
  );
};
