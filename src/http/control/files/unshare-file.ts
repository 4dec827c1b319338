import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { aclScopes, toAclEntryRoute } from './acl-entry-params.ts';

/**
 * DELETE /api/v1/file/:fileId/acl/user/:userId and …/acl/role/:roleName (the original SDKs'
 * unshare): 204. Removing an absent entry is a no-op; the creator's own entry stays.
 */
export const unshareFile: RouteRegistrar = (app, services) => {
  for (const scope of aclScopes) {
    const route = toAclEntryRoute(scope);
    app.delete(
      route.url,
      {
        schema: {
          summary: scope === 'user' ? 'Stop sharing a file with a user' : 'Stop sharing a file with a role',
          tags: ['files'],
          params: route.params,
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request, reply) => {
        const { fileId, entry } = route.read(request.params);
        await services.fileSharing.unshare(request.principal, fileId, entry);
        return reply.code(204).send();
      },
    );
  }
};
