import { Type } from '@sinclair/typebox';
import { toUnixSeconds } from '../../../domain/clock.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { directMultipartOf } from './direct-multipart-of.ts';

/**
 * POST /api/v1/file/:fileId/multipart (creator or admin; S3 stores): starts the file's parallel
 * upload, or answers the one under way with fresh URLs → `{uploadId, partSize, expiresAt,
 * parts: [{partNumber, url}]}`. PUT each part's bytes to its URL (its exact length: it is signed),
 * in any order and at once, then POST …/multipart/complete with the ETags S3 answered.
 */
export const startMultipartUpload: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/multipart',
    {
      schema: {
        summary: 'Start a parallel upload of parts straight to S3',
        tags: ['uploads'],
        params: FileIdParams,
        response: {
          200: Type.Object({
            uploadId: Type.String({ description: "S3's UploadId, as every part URL carries it" }),
            partSize: Type.Integer({ description: 'bytes in every part but the last, which holds the rest' }),
            expiresAt: Type.Integer({ description: 'Unix seconds at which the upload and its URLs expire' }),
            parts: Type.Array(
              Type.Object({
                partNumber: Type.Integer({ minimum: 1 }),
                url: Type.String({ description: "presigned S3 UploadPart: PUT exactly this part's bytes" }),
              }),
            ),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 423),
        },
      },
    },
    async (request) => {
      const multipart = directMultipartOf(services);
      const started = await multipart.start(request.principal, request.params.fileId);
      return {
        uploadId: started.uploadId,
        partSize: started.partSizeBytes,
        expiresAt: toUnixSeconds(started.expiresAt),
        parts: started.parts,
      };
    },
  );
};
