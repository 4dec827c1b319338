import { Type } from '@sinclair/typebox';
import { toPrincipal } from '../../domain/access/decide-file-access.ts';
import { toUploadContract } from '../../domain/files/upload-contract.ts';
import { notFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/**
 * POST /console/api/projects/:projectId/files {ownerId, filePath, contentLength?, contentType?}:
 * an upload into a user's files, as that user's own request would make it (their limits and
 * quotas apply). The page PUTs the bytes to `putFileUrl`, then verifies through the console.
 */
export const requestProjectUpload: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/files',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Object(
          {
            ownerId: Type.String({ minLength: 1, maxLength: 64 }),
            filePath: Type.String({ minLength: 1, maxLength: 1024 }),
            contentLength: Type.Optional(Type.Integer({ minimum: 0 })),
            contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const owner = await services.repositories.users.findById(project.id, request.body.ownerId);
      if (!owner) throw notFound('user');
      const { file, upload } = await services.fileUploads.requestUpload(toPrincipal(project, owner), {
        filePath: request.body.filePath,
        permissionScope: 'user',
        declared: toUploadContract(request.body),
      });
      return { fileId: file.id, putFileUrl: upload.url, expiresAt: upload.expiresAt };
    },
  );
};
