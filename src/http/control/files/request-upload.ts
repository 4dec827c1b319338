import { Type } from '@sinclair/typebox';
import { toUploadContract } from '../../../domain/files/upload-contract.ts';
import type { IssuedLink } from '../../../domain/links/link-issuer.ts';
import { requestResumableUpload } from '../../../domain/resumable/request-resumable-upload.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { CustomDataSchema, UploadContractFields } from '../../wire/schemas.ts';

/**
 * Spec 4.1: POST /api/v1/file → a file id and a signed upload link. With `resumable`, a repeat
 * of a request whose upload is unfinished answers that upload (issue 35, item 6).
 */
export const requestUpload: RouteRegistrar = (app, services) => {
  const toAnswer = (fileId: string, upload: IssuedLink) => ({
    fileId,
    putFileUrl: upload.url,
    postVerifyUploadUrl: `${services.publicUrl.value}/api/v1/file/${fileId}/verify`,
    expiresAt: upload.expiresAt,
  });
  app.post(
    '/file',
    {
      schema: {
        summary: 'Request an upload',
        tags: ['files'],
        body: Type.Object({
          filePath: Type.String({
            description: 'relative path inside the user folder; its last segment is the file name',
          }),
          permissionScope: Type.Optional(
            Type.Union([Type.Literal('user'), Type.Literal('*')], { default: 'user' }),
          ),
          customData: Type.Optional(CustomDataSchema),
          ...UploadContractFields,
          resumable: Type.Optional(
            Type.Boolean({
              description:
                'also open a resumable upload (tus 1.0) of contentLength bytes, answered as resumableUrl; needs contentLength',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            fileId: Type.String(),
            putFileUrl: Type.String({ description: 'signed upload link: PUT the content here' }),
            postVerifyUploadUrl: Type.String(),
            expiresAt: Type.Integer({ description: 'Unix seconds at which putFileUrl expires' }),
            resumableUrl: Type.Optional(
              Type.String({
                description:
                  'with resumable: a tus 1.0 upload URL (HEAD for the offset, PATCH the bytes); signed, expires with the upload',
              }),
            ),
            resumed: Type.Optional(
              Type.Boolean({
                description:
                  'true when the request repeats one whose resumable upload is unfinished (same path and contract): the same fileId and upload; HEAD resumableUrl for its offset',
              }),
            ),
          }),
          ...errorResponses(400, 401, 403, 409, 413, 415),
        },
      },
    },
    async (request) => {
      const asked = {
        filePath: request.body.filePath,
        permissionScope: request.body.permissionScope ?? 'user',
        customData: request.body.customData,
        declared: toUploadContract(request.body),
      } as const;
      if (request.body.resumable) {
        const answer = await requestResumableUpload(services, request.principal, {
          ...asked,
          resumeUnfinished: true,
        });
        return {
          ...toAnswer(answer.file.id, answer.upload),
          resumableUrl: answer.resumable.url,
          ...(answer.resumed && { resumed: true }),
        };
      }
      const { file, upload } = await services.fileUploads.requestUpload(request.principal, asked);
      return toAnswer(file.id, upload);
    },
  );
};
