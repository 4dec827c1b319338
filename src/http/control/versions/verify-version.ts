import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';
import { VersionParams } from './version-schemas.ts';

/** POST /api/v1/file/:fileId/versions/:versionId/verify {etag}: the uploaded bytes become current. */
export const verifyVersion: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/versions/:versionId/verify',
    {
      schema: {
        summary: 'Verify a new version’s upload: it becomes the current version',
        tags: ['versions'],
        params: VersionParams,
        body: Type.Object({
          etag: Type.String({ minLength: 1, maxLength: 256, description: 'the ETag header of the upload' }),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request) => {
      const { fileId, versionId } = request.params;
      return toFileView(
        await services.versionUploads.verify(request.principal, fileId, versionId, request.body.etag),
      );
    },
  );
};
