import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** Spec 4.2 step 3: POST /api/v1/file/:fileId/verify with the ETag of the upload. */
export const verifyUpload: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/verify',
    {
      schema: {
        summary: 'Verify an upload',
        tags: ['files'],
        params: FileIdParams,
        body: Type.Object({
          etag: Type.String({
            minLength: 1,
            maxLength: 256,
            description: 'the ETag header of the upload, quotes kept',
          }),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      toFileView(
        await services.fileUploads.verifyUpload(request.principal, request.params.fileId, request.body.etag),
      ),
  );
};
