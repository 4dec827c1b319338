import { Type } from '@sinclair/typebox';
import { toUploadContract } from '../../../domain/files/upload-contract.ts';
import type { IssuedLink } from '../../../domain/links/link-issuer.ts';
import type { VersionUpload } from '../../../domain/versions/file-version.ts';
import { requestResumableVersion } from '../../../domain/versions/request-resumable-version.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, UploadContractFields } from '../../wire/schemas.ts';
import { VersionUploadAnswerSchema } from './version-schemas.ts';

/**
 * Issue 38, item 1: POST /api/v1/file/:fileId/versions → an upload of new content for the file
 * (creator or admin), answered like an upload request; the PUT (or, with `resumable`, tus
 * PATCHes) and the verify work as for a new file, and the verify makes it the current version.
 */
export const requestVersion: RouteRegistrar = (app, services) => {
  const toAnswer = (upload: VersionUpload, link: IssuedLink) => ({
    fileId: upload.fileId,
    versionId: upload.id,
    putFileUrl: link.url,
    postVerifyUploadUrl: `${services.publicUrl.value}/api/v1/file/${upload.fileId}/versions/${upload.id}/verify`,
    expiresAt: link.expiresAt,
  });
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
            Type.Boolean({
              description:
                'also open a resumable upload (tus 1.0) of contentLength bytes, answered as resumableUrl; needs contentLength',
            }),
          ),
        }),
        response: { 200: VersionUploadAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { fileId } = request.params;
      const declared = toUploadContract(request.body);
      if (request.body.resumable) {
        const answer = await requestResumableVersion(services, request.principal, fileId, declared);
        return { ...toAnswer(answer.upload, answer.link), resumableUrl: answer.resumable.url };
      }
      const { upload, link } = await services.versionUploads.request(request.principal, fileId, declared);
      return toAnswer(upload, link);
    },
  );
};
