import { Type } from '@sinclair/typebox';
import type { ShareTarget } from '../../../domain/files/share-target.ts';
import type { FolderShare } from '../../../domain/folders/folder-share-repository.ts';
import { assertRole } from '../../../domain/identity/roles.ts';
import { isWellFormedId } from '../../../domain/ids.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { FolderOwner } from './folder-owner-schema.ts';

/** The body of /folders/share and /folders/unshare: whose folder, which, and exactly one grantee. */
export const FolderShareBody = Type.Object({
  owner: FolderOwner,
  path: Type.String({ maxLength: 1024, description: "the folder, `/`-ended ('' is the owner's root)" }),
  user: Type.Optional(Type.String({ maxLength: 64, description: 'a user of the project, by id' })),
  role: Type.Optional(Type.String({ maxLength: 64, description: 'a role' })),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'a user of the project, by email' })),
});

/** The one grantee the body names (VALIDATION_FAILED for none or several). */
export function toShareTarget(body: { user?: string; role?: string; email?: string }): ShareTarget {
  const named = [body.user, body.role, body.email].filter((value) => value !== undefined);
  if (named.length !== 1) throw validationFailed('name exactly one of user, role and email');
  if (body.user !== undefined) {
    if (!isWellFormedId(body.user)) throw validationFailed('user is not a user id');
    return { scope: 'user', identifier: body.user };
  }
  if (body.role !== undefined) return { scope: 'role', identifier: assertRole(body.role) };
  return { scope: 'email', email: body.email! };
}

export const FolderShareSchema = Type.Object({
  scope: Type.Union([Type.Literal('user'), Type.Literal('role')]),
  identifier: Type.String(),
  path: Type.String({ description: 'the shared folder: this one or an ancestor' }),
  sharedAt: Type.String({ format: 'date-time' }),
});

/** The shares reaching a folder, as the share routes answer them. */
export const FolderSharesAnswer = Type.Object({
  owner: Type.String(),
  path: Type.String(),
  shares: Type.Array(FolderShareSchema, {
    description: "the folder's own shares and its ancestors', the root first",
  }),
});

export function toFolderSharesView(ownerId: string, path: string, shares: readonly FolderShare[]) {
  return {
    owner: ownerId,
    path,
    shares: shares.map((share) => ({
      scope: share.scope,
      identifier: share.identifier,
      path: share.path,
      sharedAt: share.sharedAt.toISOString(),
    })),
  };
}
