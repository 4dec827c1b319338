import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';

/**
 * DELETE /api/v1/file/:fileId (creator or admin); 204: to the trash while the project keeps one
 * (issue 38), else the record, its ACL and its bytes; 409 FILE_ON_HOLD for a held file.
 */
export const deleteFile: RouteRegistrar = (app, services) => {
  app.delete(
    '/file/:fileId',
    {
      schema: {
        summary: 'Delete a file',
        tags: ['files'],
        params: FileIdParams,
        response: errorResponses(401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      await services.fileOrganizer.delete(request.principal, request.params.fileId);
      return reply.code(204).send();
    },
  );
};
