import { Type } from '@sinclair/typebox';
import type { AclEntry } from '../../domain/files/file-record.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toFileView } from '../wire/to-wire.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';

const shareBody = Type.Object(
  {
    userId: Type.Optional(Type.String({ maxLength: 64 })),
    role: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

/**
 * POST and DELETE /console/api/projects/:projectId/files/:fileId/shares {userId | role}: adds
 * or removes an ACL entry as the project's admin would (the file service's checks apply).
 */
export const shareProjectFile: RouteRegistrar = (app, services) => {
  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/projects/:projectId/files/:fileId/shares',
      schema: { hide: true, params: fileParams, body: shareBody },
      handler: async (request) => {
        const project = await findProject(services, request.params.projectId);
        const principal = operatorPrincipal(project, request.operator!.id);
        const entry = toAclEntry(request.body);
        const { fileId } = request.params;
        if (method === 'POST')
          return { file: toFileView(await services.fileSharing.share(principal, fileId, entry)) };
        return { file: toFileView(await services.fileSharing.unshare(principal, fileId, entry)) };
      },
    });
  }
};

function toAclEntry(body: { userId?: string; role?: string }): AclEntry {
  if ((body.userId === undefined) === (body.role === undefined))
    throw validationFailed('give userId or role, one of them');
  return body.userId !== undefined
    ? { scope: 'user', identifier: body.userId }
    : { scope: 'role', identifier: body.role! };
}
