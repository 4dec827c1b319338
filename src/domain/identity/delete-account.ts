import { isAppError } from '../../errors/app-error.ts';
import { userNotFound } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Actor, EventData } from '../events/event.ts';
import { operatorActor, toUserEvent } from '../events/user-events.ts';
import type { FileOrganizer } from '../files/file-organizer.ts';
import type { FileRepository } from '../files/file-repository.ts';
import type { FileSharing } from '../files/file-sharing.ts';
import type { TrashPurging } from '../trash/trash-purging.ts';
import type { Project } from './project-repository.ts';
import type { RefreshTokenRepository } from './refresh-token-repository.ts';
import type { User, UserRepository } from './user-repository.ts';

export type DeleteAccountOptions = {
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  files: FileRepository;
  /** Files go through the same delete and unshare as the API's, and so do their bytes. */
  fileOrganizer: FileOrganizer;
  fileSharing: FileSharing;
  /** Its trash is purged with its bytes (issue 38): trashed files are the account's files too. */
  trashPurging: Pick<TrashPurging, 'empty'>;
  /** Waits until every process and node refuses the disabled account (the access epoch's interval). */
  settle(): Promise<void>;
};

/** What a deletion removed. */
export type AccountRemoval = { files: number; shares: number; sessions: number };

/** Pages of file ids: the work is bounded however many files the user has. */
const pageSize = 200;

/**
 * `coffer user delete`: the account and everything that names it, leaving no orphaned bytes
 * and no dangling share (docs/decisions.md, "Deleting a user"). In order: the account is
 * disabled and its sessions revoked, so no node serves it any more; its files are deleted with
 * their bytes, as it would delete them itself; every `user` entry naming it in other files'
 * ACLs is removed, as an admin would unshare it; then the user row goes, and the files of a
 * request that passed its barriers before the disable are swept once more.
 */
export async function deleteAccount(
  options: DeleteAccountOptions,
  project: Project,
  userId: string,
  by: Actor = operatorActor(null),
  /** What `user.deleted` adds (a user's own deletion: `method: "self"`). */
  eventData: EventData = {},
): Promise<AccountRemoval> {
  const { users } = options;
  const user = await users.findById(project.id, userId);
  if (!user) throw userNotFound();
  await users.setEnabled(project.id, user.id, false);
  const sessions = await options.refreshTokens.deleteUserFamilies(project.id, user.id);
  await options.settle();
  let files = await deleteFilesOf(options, user);
  const shares = await removeSharesWith(options, project, user.id);
  await users.delete(project.id, user.id, toUserEvent('user.deleted', by, user, new Date(), eventData));
  files += await deleteFilesOf(options, user);
  // Last: its own files went for good above (never to the trash), so nothing is trashed after this.
  files += await options.trashPurging.empty({ projectId: project.id, ownerId: user.id }, by);
  return { files, shares, sessions };
}

async function deleteFilesOf(options: DeleteAccountOptions, user: User): Promise<number> {
  const asCreator: Principal = {
    userId: user.id,
    projectId: user.projectId,
    role: user.role,
    isAdmin: false,
  };
  let deleted = 0;
  let afterId: string | undefined;
  for (;;) {
    const ids = await options.files.listIdsCreatedBy(user.projectId, user.id, { afterId, limit: pageSize });
    for (const id of ids) {
      // For good: the trash of an account that is going would outlive it.
      const final = () => options.fileOrganizer.delete(asCreator, id, { final: true });
      if (await unlessGone(final)) deleted += 1;
    }
    if (ids.length < pageSize) return deleted;
    afterId = ids.at(-1);
  }
}

async function removeSharesWith(options: DeleteAccountOptions, project: Project, userId: string) {
  // The operator acts as an admin of the project: unshare's own rules (and whatever it revokes) apply.
  const asAdmin: Principal = { userId: '', projectId: project.id, role: project.adminRole, isAdmin: true };
  const entry = { scope: 'user', identifier: userId } as const;
  let removed = 0;
  for (;;) {
    const ids = await options.files.listIdsSharedWithUser(project.id, userId, pageSize);
    let progress = 0;
    for (const id of ids) {
      // A file the user created meanwhile names it as creator: the last sweep deletes that file.
      const done = await unlessGone(
        () => options.fileSharing.unshare(asAdmin, id, entry),
        'VALIDATION_FAILED',
      );
      if (done) progress += 1;
    }
    removed += progress;
    if (ids.length < pageSize || progress === 0) return removed;
  }
}

/** Runs the change; a file deleted meanwhile (FILE_NOT_FOUND) is no error: it is gone either way. */
async function unlessGone(change: () => Promise<unknown>, alsoTolerated?: string): Promise<boolean> {
  try {
    await change();
    return true;
  } catch (error) {
    if (isAppError(error) && (error.code === 'FILE_NOT_FOUND' || error.code === alsoTolerated)) return false;
    throw error;
  }
}
