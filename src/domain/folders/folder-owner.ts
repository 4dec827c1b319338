import { folderNotFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { isServiceKeyPrincipal } from '../identity/service-keys.ts';

/**
 * Whose folder a move or delete changes (issue 36): the caller's own by default; naming another
 * owner needs the project's admin role (a service key has it). security: a folder of another
 * owner answers FOLDER_NOT_FOUND, as one with no file does, so a caller learns nothing of it.
 */
export function toFolderOwner(principal: Principal, owner: string | undefined): string {
  if (owner === undefined) {
    // A service key owns no files: it names whose folder it means.
    if (isServiceKeyPrincipal(principal)) throw validationFailed('owner is required with a service key');
    return principal.userId;
  }
  if (owner !== principal.userId && !principal.isAdmin) throw folderNotFound();
  return owner;
}
