import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TrashOwner } from './trash-schemas.ts';

/** POST /api/v1/trash/empty?owner: the caller's whole trash (an admin: `owner`'s) → {purged}. */
export const emptyTrash: RouteRegistrar = (app, services) => {
  app.post(
    '/trash/empty',
    {
      schema: {
        summary: 'Empty the trash',
        tags: ['trash'],
        querystring: Type.Object({ owner: TrashOwner }, { additionalProperties: false }),
        response: {
          200: Type.Object({ purged: Type.Integer({ description: 'how many trashed files were purged' }) }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      purged: await services.trash.empty(request.principal, { owner: request.query.owner }),
    }),
  );
};
