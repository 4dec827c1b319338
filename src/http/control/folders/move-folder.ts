import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FolderOwner } from './folder-owner-schema.ts';

/** POST /api/v1/folders/move {owner?, from, to}: every file under `from` to `to`, in one transaction → {moved}. */
export const moveFolder: RouteRegistrar = (app, services) => {
  app.post(
    '/folders/move',
    {
      schema: {
        summary: 'Move or rename a folder',
        tags: ['folders'],
        body: Type.Object({
          owner: FolderOwner,
          from: Type.String({ description: 'the folder to move, `/`-ended (`photos/2024/`)' }),
          to: Type.String({ description: 'where it goes, `/`-ended; not `from` nor inside it' }),
        }),
        response: {
          200: Type.Object({ moved: Type.Integer({ description: 'how many files moved' }) }),
          ...errorResponses(400, 401, 403, 404, 409, 413),
        },
      },
    },
    async (request) => services.folderMoves.move(request.principal, request.body),
  );
};
