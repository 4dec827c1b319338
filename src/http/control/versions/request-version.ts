import { Type } from '@sinclair/typebox';
import { toUploadContract } from '../../../domain/files/upload-contract.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, UploadContractFields } from '../../wire/schemas.ts';
import { VersionUploadAnswerSchema } from './version-schemas.ts';

/**
 * Issue 38, item 1: POST /api/v1/file/:fileId/versions → an upload of new content for the file
 * (creator or admin), answered like an upload request; the PUT and the verify work as for a
 * new file, and the verify makes it the current version.
 */
export const requestVersion: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/versions',
    {
      schema: {
        summary: 'Upload new content for a file (a new version)',
        tags: ['versions'],
        params: FileIdParams,
        body: Type.Object({
          ...UploadContractFields,
          resumable: Type.Optional(
            Type.Boolean({ description: 'not offered for new versions yet: true is refused (400)' }),
          ),
        }),
        response: { 200: VersionUploadAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      if (request.body.resumable)
        throw validationFailed(
          'resumable: a new version is uploaded in one PUT for now; send it to putFileUrl',
        );
      const { fileId } = request.params;
      const { upload, link } = await services.versionUploads.request(
        request.principal,
        fileId,
        toUploadContract(request.body),
      );
      return {
        fileId: upload.fileId,
        versionId: upload.id,
        putFileUrl: link.url,
        postVerifyUploadUrl: `${services.publicUrl.value}/api/v1/file/${upload.fileId}/versions/${upload.id}/verify`,
        expiresAt: link.expiresAt,
      };
    },
  );
};
