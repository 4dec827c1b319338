import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { VersionEntrySchema } from './version-schemas.ts';

/** GET /api/v1/file/:fileId/versions: the current version, then the earlier ones, newest first. */
export const listVersions: RouteRegistrar = (app, services) => {
  app.get(
    '/file/:fileId/versions',
    {
      schema: {
        summary: 'List a file’s versions',
        tags: ['versions'],
        params: FileIdParams,
        response: { 200: Type.Array(VersionEntrySchema), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const versions = await services.fileVersions.list(request.principal, request.params.fileId);
      return versions.map((version) => ({
        versionId: version.versionId,
        etag: version.etag,
        size: version.content.sizeBytes,
        contentType: version.content.contentType,
        checksumSha256: version.content.checksumSha256 ?? null,
        createdAt: version.createdAt.toISOString(),
        createdBy: version.createdBy,
        current: version.current,
      }));
    },
  );
};
