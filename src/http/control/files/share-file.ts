import { Type } from '@sinclair/typebox';
import { assertRole } from '../../../domain/identity/accounts.ts';
import { isWellFormedId } from '../../../domain/ids.ts';
import type { AclScope } from '../../../domain/ports.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/**
 * Spec 4.3 and 4.4: POST /api/v1/file/:fileId/acl/user/:userId and …/acl/role/:roleName, with
 * no body. Sharing twice is a no-op answered with the same record.
 */
export const shareFile: RouteRegistrar = (app, services) => {
  for (const scope of ['user', 'role'] as const satisfies AclScope[]) {
    const name = scope === 'user' ? 'userId' : 'roleName';
    app.post(
      `/file/:fileId/acl/${scope}/:${name}`,
      {
        schema: {
          summary: scope === 'user' ? 'Share a file with a user' : 'Share a file with a role',
          tags: ['files'],
          params: Type.Object({ fileId: Type.String(), [name]: Type.String() }),
          response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const params = request.params as Record<string, string>;
        const identifier = toIdentifier(scope, params[name] ?? '');
        const file = await services.files.share(request.principal, params.fileId ?? '', {
          scope,
          identifier,
        });
        return toFileView(file);
      },
    );
  }
};

function toIdentifier(scope: AclScope, value: string): string {
  if (scope === 'role') return assertRole(value);
  if (!isWellFormedId(value)) throw validationFailed('userId is not a user id');
  return value;
}
