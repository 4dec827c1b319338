import { Type } from '@sinclair/typebox';
import { isEmailAddress } from '../../../domain/identity/accounts.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/**
 * POST /api/v1/file/:fileId/acl/email/:email, with no body: shares with the project's user of
 * that email (case-insensitive), as …/acl/user/:userId does with its id; the ACL names the id.
 * An email no user of the project has is 404 USER_NOT_FOUND; a user (not an admin) who asks for
 * too many is 429 RATE_LIMITED (docs/security.md, "Finding users").
 */
export const shareFileByEmail: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/acl/email/:email',
    {
      schema: {
        summary: 'Share a file with a user, named by email',
        tags: ['files'],
        params: Type.Object({
          fileId: Type.String(),
          email: Type.String({ maxLength: 320, description: 'percent-encoded where needed' }),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { fileId, email } = request.params;
      if (!isEmailAddress(email)) throw validationFailed('email is not a valid address');
      const target = { scope: 'email', email } as const;
      return toFileView(await services.fileSharing.share(request.principal, fileId, target));
    },
  );
};
