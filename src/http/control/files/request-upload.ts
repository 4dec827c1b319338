import { Type } from '@sinclair/typebox';
import { toUploadContract } from '../../../domain/files/upload-contract.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { CustomDataSchema, UploadContractFields } from '../../wire/schemas.ts';

/** Spec 4.1: POST /api/v1/file → a file id and a signed upload link. */
export const requestUpload: RouteRegistrar = (app, services) => {
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
        }),
        response: {
          200: Type.Object({
            fileId: Type.String(),
            putFileUrl: Type.String({ description: 'signed upload link: PUT the content here' }),
            postVerifyUploadUrl: Type.String(),
            expiresAt: Type.Integer({ description: 'Unix seconds at which putFileUrl expires' }),
          }),
          ...errorResponses(400, 401, 403, 409, 413, 415),
        },
      },
    },
    async (request) => {
      const { file, upload } = await services.fileUploads.requestUpload(request.principal, {
        filePath: request.body.filePath,
        permissionScope: request.body.permissionScope ?? 'user',
        customData: request.body.customData,
        declared: toUploadContract(request.body),
      });
      return {
        fileId: file.id,
        putFileUrl: upload.url,
        postVerifyUploadUrl: `${services.publicUrl.value}/api/v1/file/${file.id}/verify`,
        expiresAt: upload.expiresAt,
      };
    },
  );
};
