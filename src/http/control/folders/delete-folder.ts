import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FolderOwner } from './folder-owner-schema.ts';

/** POST /api/v1/folders/delete {owner?, path}: every file under `path`, in one transaction → {deleted, bytes}. */
export const deleteFolder: RouteRegistrar = (app, services) => {
  app.post(
    '/folders/delete',
    {
      schema: {
        summary: 'Delete a folder',
        tags: ['folders'],
        body: Type.Object({
          owner: FolderOwner,
          path: Type.String({ description: 'the folder to delete, `/`-ended (`photos/2024/`)' }),
        }),
        response: {
          200: Type.Object({
            deleted: Type.Integer({ description: 'how many files were deleted' }),
            bytes: Type.Integer({ description: 'the bytes they counted against the quotas' }),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 413),
        },
      },
    },
    async (request) => services.folderDeletion.delete(request.principal, request.body),
  );
};
