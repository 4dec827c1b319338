import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { VersionParams } from './version-schemas.ts';

/** DELETE /api/v1/file/:fileId/versions/:versionId: an earlier version (not the current one); 204. */
export const deleteVersion: RouteRegistrar = (app, services) => {
  app.delete(
    '/file/:fileId/versions/:versionId',
    {
      schema: {
        summary: 'Delete an earlier version',
        tags: ['versions'],
        params: VersionParams,
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const { fileId, versionId } = request.params;
      await services.fileVersions.delete(request.principal, fileId, versionId);
      return reply.code(204).send();
    },
  );
};
