import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { directMultipartOf } from './direct-multipart-of.ts';

/** GET /api/v1/file/:fileId/multipart: the parts S3 holds of the file's parallel upload (to resume it). */
export const listMultipartParts: RouteRegistrar = (app, services) => {
  app.get(
    '/file/:fileId/multipart',
    {
      schema: {
        summary: 'List the parts S3 holds of a parallel upload',
        tags: ['uploads'],
        params: FileIdParams,
        response: {
          200: Type.Object({
            uploadId: Type.String(),
            partSize: Type.Integer(),
            parts: Type.Array(
              Type.Object({
                partNumber: Type.Integer({ minimum: 1 }),
                size: Type.Integer({ description: 'bytes' }),
                etag: Type.String({ description: 'as S3 answered the PUT, quotes kept' }),
              }),
            ),
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const multipart = directMultipartOf(services);
      const listed = await multipart.listParts(request.principal, request.params.fileId);
      return {
        uploadId: listed.uploadId,
        partSize: listed.partSizeBytes,
        parts: listed.parts.map(({ partNumber, sizeBytes, etag }) => ({ partNumber, size: sizeBytes, etag })),
      };
    },
  );
};
