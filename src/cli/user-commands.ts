import type { Config } from '../config/config.ts';
import { resetPassword } from '../domain/identity/accounts.ts';
import { toUserView } from '../domain/identity/user-view.ts';
import { userNotFound } from '../errors/errors.ts';
import { getProject, userCreate, userSetEnabled, userSetRole, withStores } from './admin-commands.ts';
import { type Command, type CommandOutput, required, type Values } from './command.ts';
import { withLocalPaths } from './local-paths.ts';
import { readPassword } from './read-password.ts';
import { toUserLine, userList } from './user-list.ts';
import { userMfaReset } from './user-mfa-reset.ts';

// `coffer user list | find | delete | reset-password | mfa-reset`: like every admin command, on the stores
// directly, also while servers run on the same data.

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
  // Every service (the server's wiring) loads only for a deletion, not for list, find or create.
  const [{ buildServices }, { accountDeletion }, { deleteAccount }] = await Promise.all([
    import('../services.ts'),
    import('../wiring/account-deletion.ts'),
    import('../domain/identity/delete-account.ts'),
  ]);
  const services = await buildServices(config, { log: (line) => console.error(line) });
  try {
    const project = await getProject(services.repositories, input.project);
    const removed = await deleteAccount(accountDeletion(services), project, input.userId);
    return { userId: input.userId, deleted: true, ...removed };
  } finally {
    await services.close();
  }
}

/** `coffer user …`: a project's users, on the stores directly. */
export const userCommands: Record<string, Command> = {
  'user create': {
    summary: 'Create a user; the password from --password, --password-stdin or a prompt.',
    flags: ['project', 'email', 'password', 'password-stdin', 'role', 'json'],
    run: async (config, values) => {
      const input = {
        project: required(values.project, '--project'),
        email: required(values.email, '--email'),
        password: await readPassword({ flag: values.password, fromStdin: values['password-stdin'] === true }),
        role: values.role,
      };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => userCreate(config, input));
      return { json: result, text: `User ${result.userId}` };
    },
  },
  'user set-role': {
    summary: 'Give a user another role (an admin role makes them an admin).',
    flags: ['project', 'json'],
    args: ['<userId>', '<role>'],
    run: async (config, values, [userId, role]) => {
      const input = { project: required(values.project, '--project'), userId: userId!, role: role! };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => userSetRole(config, input));
      return { json: result, text: `User ${result.userId} now has role ${result.role}` };
    },
  },
  'user list': {
    summary: "List a project's users by email.",
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project'), json: values.json === true };
      await withLocalPaths(config, { stores: 'existing' }, () => userList(config, input));
      return undefined; // printed page by page
    },
  },
  'user find': {
    summary: 'Find a user of a project by email.',
    flags: ['project', 'json'],
    args: ['<email>'],
    run: async (config, values, [email]) => {
      const input = { project: required(values.project, '--project'), email: email! };
      const user = await withLocalPaths(config, { stores: 'existing' }, () => userFind(config, input));
      return { json: user, text: toUserLine(user) };
    },
  },
  'user delete': {
    summary: 'Delete a user with their files, bytes, shares and sessions.',
    flags: ['project', 'json'],
    args: ['<userId>'],
    run: async (config, values, [userId]) => {
      const input = { project: required(values.project, '--project'), userId: userId! };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => userDelete(config, input));
      const text = `User ${result.userId} deleted, with ${result.files} files; removed from ${result.shares} shares; ${result.sessions} sessions revoked`;
      return { json: result, text };
    },
  },
  'user reset-password': {
    summary: "Set a user's password (prompt or --password-stdin); ends their sessions.",
    flags: ['project', 'password-stdin', 'json'],
    args: ['<userId>'],
    run: async (config, values, [userId]) => {
      const project = required(values.project, '--project');
      const password = await readPassword({ fromStdin: values['password-stdin'] === true });
      const input = { project, userId: userId!, password };
      const result = await withLocalPaths(config, { stores: 'existing' }, () =>
        userResetPassword(config, input),
      );
      const text = `Password of user ${result.userId} reset; ${result.sessionsRevoked} sessions revoked`;
      return { json: result, text };
    },
  },
  'user mfa-reset': {
    summary: "Remove a user's second factors and recovery codes (a lost authenticator).",
    flags: ['project', 'json'],
    args: ['<email>'],
    run: async (config, values, [email]) => {
      const input = { project: required(values.project, '--project'), email: email! };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => userMfaReset(config, input));
      const text = result.reset
        ? `Second factors of user ${result.userId} removed`
        : `User ${result.userId} had no second factor`;
      return { json: result, text };
    },
  },
  'user disable': {
    summary: 'Refuse a user at once, everywhere.',
    flags: ['project', 'json'],
    args: ['<userId>'],
    run: (c, v, a) => setEnabled(c, v, a, false),
  },
  'user enable': {
    summary: 'Let a disabled user in again.',
    flags: ['project', 'json'],
    args: ['<userId>'],
    run: (c, v, a) => setEnabled(c, v, a, true),
  },
};

async function setEnabled(
  config: Config,
  values: Values,
  [userId]: string[],
  enabled: boolean,
): Promise<CommandOutput> {
  const input = { project: required(values.project, '--project'), userId: userId!, enabled };
  const result = await withLocalPaths(config, { stores: 'existing' }, () => userSetEnabled(config, input));
  return { json: result, text: `User ${result.userId} is ${enabled ? 'enabled' : 'disabled'}` };
}
