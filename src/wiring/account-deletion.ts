import { setTimeout as sleep } from 'node:timers/promises';
import { accessEpochCheckIntervalMs } from '../domain/identity/access-epoch-watch.ts';
import type { DeleteAccountOptions } from '../domain/identity/delete-account.ts';
import type { Repositories } from '../persistence/repositories/create-repositories.ts';
import type { FileServices } from './file-services.ts';
import type { TrashServices } from './trash-services.ts';

/**
 * What deleting an account needs (delete-account.ts), for `coffer user delete` and the console:
 * after the disable, the wait lets every process re-read the access epoch, so none serves the
 * account while its files go.
 */
export function accountDeletion(
  services: { repositories: Repositories } & Pick<FileServices, 'fileOrganizer' | 'fileSharing'> &
    Pick<TrashServices, 'trashPurging'>,
): DeleteAccountOptions {
  const { repositories } = services;
  return {
    users: repositories.users,
    refreshTokens: repositories.refreshTokens,
    files: repositories.files,
    fileOrganizer: services.fileOrganizer,
    fileSharing: services.fileSharing,
    trashPurging: services.trashPurging,
    settle: () => sleep(accessEpochCheckIntervalMs * 4),
  };
}
