import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';

/**
 * POST /api/v1/file/:fileId/links/revoke (creator or admin): every download link of the file
 * issued so far stops, on every process and node at once; 204. New links work as before.
 */
export const revokeLinks: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/links/revoke',
    {
      schema: {
        summary: "Revoke a file's download links",
        tags: ['files'],
        params: FileIdParams,
        response: errorResponses(401, 403, 404),
      },
    },
    async (request, reply) => {
      await services.fileSharing.revokeLinks(request.principal, request.params.fileId);
      return reply.code(204).send();
    },
  );
};
