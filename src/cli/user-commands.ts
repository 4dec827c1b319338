import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/config.ts';
import { accessEpochCheckIntervalMs } from '../domain/identity/access-epoch-watch.ts';
import { resetPassword } from '../domain/identity/accounts.ts';
import { deleteAccount } from '../domain/identity/delete-account.ts';
import type { User } from '../domain/ports.ts';
import { userNotFound } from '../errors/errors.ts';
import { buildServices } from '../services.ts';
import { getProject, withStores } from './admin-commands.ts';

// `coffer user list | find | delete | reset-password`: like every admin command, on the stores
// directly, also while servers run on the same data.

/** How a user is printed: never the password hash. */
export function toUserView(user: User) {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    displayName: user.displayName,
    enabled: user.enabled,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof toUserView>;

/** The text form: id, email, role, state, separated by two spaces. */
export function toUserLine(user: UserView): string {
  return [user.userId, user.email, user.role, user.enabled ? 'enabled' : 'disabled'].join('  ');
}

/** Users a page at a time, in email order, each printed as it comes: a million never sit in memory. */
export async function userList(config: Config, input: { project: string; json: boolean }): Promise<number> {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    let count = 0;
    let after: string | undefined;
    do {
      const page = await repositories.users.list(project.id, { after, limit: 500 });
      for (const user of page.users) {
        const view = toUserView(user);
        await writeLine(input.json ? JSON.stringify(view) : toUserLine(view));
      }
      count += page.users.length;
      after = page.next;
    } while (after !== undefined);
    return count;
  });
}

/** One line to stdout, waiting for the pipe when it is full (a slow reader, `| less`). */
async function writeLine(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
}

export async function userFind(config: Config, input: { project: string; email: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const user = await repositories.users.findByEmail(project.id, input.email);
    if (!user) throw userNotFound();
    return toUserView(user);
  });
}

export async function userResetPassword(
  config: Config,
  input: { project: string; userId: string; password: string },
) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const sessionsRevoked = await resetPassword(repositories, project, input);
    return { userId: input.userId, sessionsRevoked };
  });
}

/** Deletes the account, its files and bytes, the shares naming it and its sessions (delete-account.ts). */
export async function userDelete(config: Config, input: { project: string; userId: string }) {
  const services = await buildServices(config, { log: (line) => console.error(line) });
  try {
    const { repositories } = services;
    const project = await getProject(repositories, input.project);
    const removed = await deleteAccount(
      {
        users: repositories.users,
        refreshTokens: repositories.refreshTokens,
        files: repositories.files,
        fileService: services.files,
        // Every process re-reads the access epoch at this interval: then none serves the account.
        settle: () => sleep(accessEpochCheckIntervalMs * 4),
      },
      project,
      input.userId,
    );
    return { userId: input.userId, deleted: true, ...removed };
  } finally {
    await services.close();
  }
}
