import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';

/** DELETE /api/v1/trash/:fileId: purged now, with its bytes (owner or admin); 204. */
export const purgeTrashed: RouteRegistrar = (app, services) => {
  app.delete(
    '/trash/:fileId',
    {
      schema: {
        summary: 'Purge a trashed file',
        tags: ['trash'],
        params: FileIdParams,
        response: errorResponses(401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      await services.trash.purge(request.principal, request.params.fileId);
      return reply.code(204).send();
    },
  );
};
