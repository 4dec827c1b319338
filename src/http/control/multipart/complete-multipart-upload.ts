import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { directMultipartOf } from './direct-multipart-of.ts';

/** S3 takes at most 10,000 parts per upload. */
const maxParts = 10_000;

/**
 * POST /api/v1/file/:fileId/multipart/complete {parts: [{partNumber, etag}]}: Coffer compares
 * the ETags with the parts S3 holds, publishes them and commits the bytes as the record's
 * upload, as a PUT does → `{etag}`, which verify takes. A repeat answers the same ETag.
 */
export const completeMultipartUpload: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/multipart/complete',
    {
      // Every part named: up to 10,000 of about 60 bytes each, past the usual JSON body limit.
      bodyLimit: 1024 * 1024,
      schema: {
        summary: 'Complete a parallel upload',
        tags: ['uploads'],
        params: FileIdParams,
        body: Type.Object({
          parts: Type.Array(
            Type.Object({
              partNumber: Type.Integer({ minimum: 1, maximum: maxParts }),
              etag: Type.String({ minLength: 1, maxLength: 256, description: "the part PUT's ETag header" }),
            }),
            { maxItems: maxParts, description: 'every part, 1 to N, each once' },
          ),
        }),
        response: {
          200: Type.Object({
            etag: Type.String({ description: 'the quoted ETag of the upload: verify with it' }),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 423),
        },
      },
    },
    async (request) => {
      const multipart = directMultipartOf(services);
      const { fileId } = request.params;
      return { etag: await multipart.complete(request.principal, fileId, request.body.parts) };
    },
  );
};
