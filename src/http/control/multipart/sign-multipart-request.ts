import { Type } from '@sinclair/typebox';
import { multipartRequestMethods } from '../../../domain/resumable/direct-multipart-signer.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams } from '../../wire/schemas.ts';
import { directMultipartSignerOf } from './direct-multipart-of.ts';

const operations = Object.keys(multipartRequestMethods).map((name) => Type.Literal(name)) as [
  ReturnType<typeof Type.Literal<keyof typeof multipartRequestMethods>>,
  ...ReturnType<typeof Type.Literal<keyof typeof multipartRequestMethods>>[],
];

/**
 * POST /api/v1/file/:fileId/multipart/sign {method, operation, uploadId?, partNumber?} (creator
 * or admin; S3 stores): Uppy's `@uppy/aws-s3` `signRequest` (issue 43) → `{url, key}` where the
 * plugin sends that one request. Only on the file's own upload and key, never the client's:
 * createMultipartUpload starts the upload (as POST …/multipart does) and completeMultipartUpload
 * answers a Coffer link that completes and verifies the file; the others are presigned S3 URLs.
 */
export const signMultipartRequest: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/multipart/sign',
    {
      schema: {
        summary: "Sign one of Uppy's S3 requests on the file's parallel upload",
        tags: ['uploads'],
        params: FileIdParams,
        body: Type.Object(
          {
            method: Type.Union(
              ['POST', 'PUT', 'GET', 'DELETE'].map((name) => Type.Literal(name)),
              {
                description: "the S3 request's method, as the plugin names it",
              },
            ),
            operation: Type.Union(operations, {
              description:
                'createMultipartUpload, uploadPart, listParts, abortMultipartUpload or completeMultipartUpload',
            }),
            uploadId: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 1024,
                description: "S3's UploadId: every operation but createMultipartUpload",
              }),
            ),
            partNumber: Type.Optional(
              Type.Integer({ minimum: 1, maximum: 10_000, description: 'uploadPart only' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            url: Type.String({
              description:
                'where the plugin sends the request: a presigned S3 URL, or a Coffer link (createMultipartUpload, completeMultipartUpload)',
            }),
            key: Type.String({
              description: "the object's key for the plugin: the file's id, whatever key it asked for",
            }),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 423),
        },
      },
    },
    async (request) =>
      directMultipartSignerOf(services).sign(request.principal, request.params.fileId, request.body),
  );
};
