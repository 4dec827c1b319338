import type { User } from '../../domain/identity/user-repository.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';

/** Whose folders a console folder route means: their user id, and their email when the account exists. */
export type ConsoleFolderOwner = { id: string; email: string | null };

/**
 * `owner` as people type it (as the files filter takes it): an email (any case) or a user id.
 * An email no user of the project has is USER_NOT_FOUND, told beside the form; an id is taken as
 * it is, since files may outlive their owner's account (an import, a user deleted since).
 */
export async function findFolderOwner(
  services: Services,
  projectId: string,
  owner: string,
): Promise<ConsoleFolderOwner> {
  const user: User | undefined = owner.includes('@')
    ? await services.repositories.users.findByEmail(projectId, owner)
    : await services.repositories.users.findById(projectId, owner);
  if (user) return { id: user.id, email: user.email };
  if (owner.includes('@')) throw userNotFound();
  return { id: owner, email: null };
}
