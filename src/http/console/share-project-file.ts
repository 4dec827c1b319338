import { Type } from '@sinclair/typebox';
import type { ShareTarget } from '../../domain/files/file-sharing.ts';
import { isEmailAddress } from '../../domain/identity/accounts.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { toFileViewWithPeople } from './file-people.ts';
import { findProject } from './project-view.ts';

const shareBody = Type.Object(
  {
    userId: Type.Optional(Type.String({ maxLength: 64 })),
    role: Type.Optional(Type.String({ maxLength: 64 })),
    /** POST only: the project's user of this email (case-insensitive), as the API's …/acl/email. */
    email: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: false },
);

/**
 * POST and DELETE /console/api/projects/:projectId/files/:fileId/shares {userId | role | email}:
 * adds or removes an ACL entry as the project's admin would (the file service's checks apply).
 * An email names a user of the project (USER_NOT_FOUND otherwise); the entry holds their id.
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
        const target = toShareTarget(request.body);
        const { fileId } = request.params;
        if (method === 'POST') {
          const shared = await services.fileSharing.share(principal, fileId, target);
          return { file: await toFileViewWithPeople(services, project.id, shared) };
        }
        if (target.scope === 'email') throw validationFailed('unshare by userId or role');
        const unshared = await services.fileSharing.unshare(principal, fileId, target);
        return { file: await toFileViewWithPeople(services, project.id, unshared) };
      },
    });
  }
};

function toShareTarget(body: { userId?: string; role?: string; email?: string }): ShareTarget {
  const given = [body.userId, body.role, body.email].filter((value) => value !== undefined);
  if (given.length !== 1) throw validationFailed('give userId, role or email, one of them');
  if (body.email !== undefined) {
    if (!isEmailAddress(body.email)) throw validationFailed('email is not a valid address');
    return { scope: 'email', email: body.email };
  }
  return body.userId !== undefined
    ? { scope: 'user', identifier: body.userId }
    : { scope: 'role', identifier: body.role! };
}
