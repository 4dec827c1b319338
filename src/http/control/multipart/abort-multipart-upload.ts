import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { directMultipartOf } from './direct-multipart-of.ts';

/**
 * DELETE /api/v1/file/:fileId/multipart: aborts the file's parallel upload (its parts go), and
 * frees the record's reservation as terminating a resumable upload does; 204.
 */
export const abortMultipartUpload: RouteRegistrar = (app, services) => {
  app.delete(
    '/file/:fileId/multipart',
    {
      schema: {
        summary: 'Abort a parallel upload',
        tags: ['uploads'],
        params: FileIdParams,
        response: errorResponses(400, 401, 403, 404, 409, 423),
      },
    },
    async (request, reply) => {
      await directMultipartOf(services).abort(request.principal, request.params.fileId);
      return reply.code(204).send();
    },
  );
};
