import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';
import { VersionParams } from './version-schemas.ts';

/** POST /api/v1/file/:fileId/versions/:versionId/restore: a new current version with those bytes (no copy). */
export const restoreVersion: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/versions/:versionId/restore',
    {
      schema: {
        summary: 'Restore an earlier version (it becomes the current one again)',
        tags: ['versions'],
        params: VersionParams,
        response: { 200: FileRecordSchema, ...errorResponses(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { fileId, versionId } = request.params;
      return toFileView(await services.fileVersions.restore(request.principal, fileId, versionId));
    },
  );
};
