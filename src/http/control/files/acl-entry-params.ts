import { Type } from '@sinclair/typebox';
import type { AclEntry, AclScope } from '../../../domain/files/file-record.ts';
import { assertRole } from '../../../domain/identity/roles.ts';
import { isWellFormedId } from '../../../domain/ids.ts';
import { validationFailed } from '../../../errors/errors.ts';

export const aclScopes = ['user', 'role'] as const satisfies AclScope[];

/** The URL of an ACL entry: …/acl/user/:userId or …/acl/role/:roleName. */
export function toAclEntryRoute(scope: AclScope) {
  const name = scope === 'user' ? 'userId' : 'roleName';
  return {
    url: `/file/:fileId/acl/${scope}/:${name}`,
    params: Type.Object({ fileId: Type.String(), [name]: Type.String() }),
    /** Reads the file id and the entry from the matched params, checking the identifier's form. */
    read(params: unknown): { fileId: string; entry: AclEntry } {
      const values = params as Record<string, string>;
      const value = values[name] ?? '';
      if (scope === 'user' && !isWellFormedId(value)) throw validationFailed('userId is not a user id');
      const identifier = scope === 'role' ? assertRole(value) : value;
      return { fileId: values.fileId ?? '', entry: { scope, identifier } };
    },
  };
}
