import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';
import { aclScopes, toAclEntryRoute } from './acl-entry-params.ts';

/**
 * Spec 4.3 and 4.4: POST /api/v1/file/:fileId/acl/user/:userId and …/acl/role/:roleName, with
 * no body. Sharing twice is a no-op answered with the same record.
 */
export const shareFile: RouteRegistrar = (app, services) => {
  for (const scope of aclScopes) {
    const route = toAclEntryRoute(scope);
    app.post(
      route.url,
      {
        schema: {
          summary: scope === 'user' ? 'Share a file with a user' : 'Share a file with a role',
          tags: ['files'],
          params: route.params,
          response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { fileId, entry } = route.read(request.params);
        return toFileView(await services.fileSharing.share(request.principal, fileId, entry));
      },
    );
  }
};
