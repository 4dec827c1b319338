import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';

/** DELETE /api/v1/file/:fileId/hold (project admins): lifts the file's legal hold; 204, held or not. */
export const releaseFile: RouteRegistrar = (app, services) => {
  app.delete(
    '/file/:fileId/hold',
    {
      schema: {
        summary: "Lift a file's legal hold",
        tags: ['files'],
        params: FileIdParams,
        response: errorResponses(401, 403, 404),
      },
    },
    async (request, reply) => {
      await services.fileHolds.release(request.principal, request.params.fileId);
      return reply.code(204).send();
    },
  );
};
