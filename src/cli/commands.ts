import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { serve } from '../main.ts';
import {
  migrate,
  projectCreate,
  projectSet,
  projectShow,
  userCreate,
  userSetEnabled,
  userSetRole,
} from './admin-commands.ts';
import { appCreate, appList, appRevoke } from './app-commands.ts';
import { endUserCommands } from './end-user-commands.ts';
import { exportData, importData } from './export-import.ts';
import { collectGarbage, toGcText } from './gc-command.ts';
import { keysRotate, toKeysText } from './keys-command.ts';
import { type LocalPathsUse, prepareLocalPaths } from './local-paths.ts';
import { operatorCommands } from './operator-commands.ts';
import { tightenExistingFiles } from './private-files.ts';
import { createProgress } from './progress.ts';

import { projectDelete, projectList, projectOrigin } from './project-commands.ts';
import { readPassword } from './read-password.ts';

import { logStartWarning } from './start-log.ts';
import { toUserLine, userDelete, userFind, userList, userResetPassword } from './user-commands.ts';

/** Every flag of every command (parseArgs options). */
const options = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'storage-url': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'public-url': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  workers: { type: 'string' },
  'log-level': { type: 'string' },
  origin: { type: 'string', multiple: true },
  project: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  role: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  in: { type: 'string' },
  apply: { type: 'boolean' },
  force: { type: 'boolean' },
  purpose: { type: 'string' },
  yes: { type: 'boolean' },
  'retire-old': { type: 'boolean' },
  url: { type: 'string' },
  'app-id': { type: 'string' },
  prefix: { type: 'string' },
  path: { type: 'string' },
  user: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type Flag = keyof typeof options;
export type Values = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>
>['values'];
type Output = { json: Record<string, unknown>; text: string } | undefined;

/** One command: the flags it takes besides the common ones, its positional arguments, what it does. */
export type Command = {
  /** One line for `coffer help`. */
  summary: string;
  flags: readonly Flag[];
  args?: readonly string[];
  run(config: Config, values: Values, args: string[]): Promise<Output>;
};

/** Flags every command takes. */
export const commonFlags: readonly Flag[] = ['data-dir', 'database-url', 'storage-url', 'help'];

/** Parses the command line by the flag table; a mistake in it is a ConfigError. */
export function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (coffer --help lists the commands and flags)`);
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new ConfigError(`${flag} is required`);
  return value;
}

async function withPaths<T>(config: Config, use: LocalPathsUse, work: () => Promise<T>): Promise<T> {
  await prepareLocalPaths(config, use);
  return work();
}

/** Every command: what it does and what it prints (JSON with --json, a sentence otherwise). */
export const commands: Record<string, Command> = {
  serve: {
    summary: 'Start the service: a supervising primary and --workers server processes.',
    flags: ['host', 'port', 'public-url', 'tls-cert', 'tls-key', 'trust-proxy', 'workers', 'log-level'],
    run: async (config) => {
      await prepareLocalPaths(config, { dataDir: true, stores: 'create' });
      await tightenExistingFiles(config, logStartWarning);
      await serve(config);
      return undefined;
    },
  },
  migrate: {
    summary: 'Bring the database schema up to date (serve does it too).',
    flags: ['json'],
    run: async (config) => {
      await withPaths(config, { stores: 'create' }, () => migrate(config));
      return { json: { migrated: true }, text: 'The database schema is up to date.' };
    },
  },
  export: {
    summary: 'Write every project, user, key and verified file to a new directory (a secret: keep it so).',
    flags: ['out', 'json'],
    run: async (config, values) => {
      const progress = createProgress('export', { json: values.json === true });
      const counts = await exportData(config, required(values.out, '--out'), progress);
      return { json: counts, text: `Exported ${JSON.stringify(counts)} to ${values.out}` };
    },
  },
  import: {
    summary: 'Read an export into empty stores, checking all of it first.',
    flags: ['in', 'json'],
    run: async (config, values) => {
      const progress = createProgress('import', { json: values.json === true });
      const counts = await importData(config, required(values.in, '--in'), progress);
      return { json: counts, text: `Imported ${JSON.stringify(counts)} from ${values.in}` };
    },
  },
  gc: {
    summary: 'Report stray blobs (a dry run), or remove them with --apply.',
    flags: ['apply', 'json'],
    run: async (config, values) => {
      const report = await withPaths(config, { stores: 'existing' }, () =>
        collectGarbage(config, { apply: values.apply ?? false }),
      );
      return { json: report, text: toGcText(report) };
    },
  },
  'project create': {
    summary: 'Create a project; prints its app id and secret (shown once).',
    flags: ['origin', 'json'],
    args: ['<name>'],
    run: async (config, values, [name]) => {
      const result = await withPaths(config, { stores: 'create' }, () =>
        projectCreate(config, { name: name!, origins: values.origin ?? [] }),
      );
      const text = `Project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`;
      return { json: result, text };
    },
  },
  'project show': {
    summary: 'Print a project: its app id, allowed origins and settings.',
    flags: ['json'],
    args: ['<project>'],
    run: async (config, _values, [project]) => {
      const result = await withPaths(config, { stores: 'existing' }, () =>
        projectShow(config, { project: project! }),
      );
      return { json: result, text: JSON.stringify(result, null, 2) };
    },
  },
  'project set': {
    summary: 'Change project settings (name=value; name= restores a default).',
    flags: ['json'],
    args: ['<project>', '<name=value>...'],
    run: async (config, _values, [project, ...assignments]) => {
      const input = { project: project!, assignments };
      const result = await withPaths(config, { stores: 'existing' }, () => projectSet(config, input));
      return { json: result, text: `Project ${result.name}: ${JSON.stringify(result.settings)}` };
    },
  },
  'project list': {
    summary: 'List every project.',
    flags: ['json'],
    run: async (config) => {
      const result = await withPaths(config, { stores: 'existing' }, () => projectList(config));
      const lines = result.projects.map(
        (project) =>
          `${project.name}  ${project.projectId}  origins: ${project.allowedOrigins.join(' ') || 'none'}`,
      );
      return { json: result, text: lines.join('\n') || 'No projects' };
    },
  },
  'project origin': {
    summary: 'Add or remove browser origins allowed to call without the secret.',
    flags: ['json'],
    args: ['<add|remove>', '<project>', '<origin>...'],
    run: async (config, _values, [action, project, ...origins]) => {
      const input = { action: action!, project: project!, origins };
      const result = await withPaths(config, { stores: 'existing' }, () => projectOrigin(config, input));
      return {
        json: result,
        text: `Project ${result.name} allows: ${result.allowedOrigins.join(' ') || 'no origin'}`,
      };
    },
  },
  'project delete': {
    summary: 'Delete a project with its users, sessions, files and bytes (irreversible).',
    flags: ['yes', 'json'],
    args: ['<project>'],
    run: async (config, values, [project]) => {
      const input = { project: project!, yes: values.yes ?? false };
      const result = await withPaths(config, { stores: 'existing' }, () => projectDelete(config, input));
      const text = `Deleted project ${result.name} (${result.projectId}): ${result.users} users, ${result.sessions} sessions, ${result.files} files (${result.blobs} blob versions), ${result.appCredentials} app credentials`;
      return { json: result, text };
    },
  },
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
      const result = await withPaths(config, { stores: 'existing' }, () => userCreate(config, input));
      return { json: result, text: `User ${result.userId}` };
    },
  },
  'user set-role': {
    summary: 'Give a user another role (an admin role makes them an admin).',
    flags: ['project', 'json'],
    args: ['<userId>', '<role>'],
    run: async (config, values, [userId, role]) => {
      const input = { project: required(values.project, '--project'), userId: userId!, role: role! };
      const result = await withPaths(config, { stores: 'existing' }, () => userSetRole(config, input));
      return { json: result, text: `User ${result.userId} now has role ${result.role}` };
    },
  },
  'user list': {
    summary: "List a project's users by email.",
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project'), json: values.json === true };
      await withPaths(config, { stores: 'existing' }, () => userList(config, input));
      return undefined; // printed page by page
    },
  },
  'user find': {
    summary: 'Find a user of a project by email.',
    flags: ['project', 'json'],
    args: ['<email>'],
    run: async (config, values, [email]) => {
      const input = { project: required(values.project, '--project'), email: email! };
      const user = await withPaths(config, { stores: 'existing' }, () => userFind(config, input));
      return { json: user, text: toUserLine(user) };
    },
  },
  'user delete': {
    summary: 'Delete a user with their files, bytes, shares and sessions.',
    flags: ['project', 'json'],
    args: ['<userId>'],
    run: async (config, values, [userId]) => {
      const input = { project: required(values.project, '--project'), userId: userId! };
      const result = await withPaths(config, { stores: 'existing' }, () => userDelete(config, input));
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
      const result = await withPaths(config, { stores: 'existing' }, () => userResetPassword(config, input));
      const text = `Password of user ${result.userId} reset; ${result.sessionsRevoked} sessions revoked`;
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
  'app create': {
    summary: 'Add an app id and secret to a project (the secret is shown once).',
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project') };
      const result = await withPaths(config, { stores: 'existing' }, () => appCreate(config, input));
      const text = `App credential for project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`;
      return { json: result, text };
    },
  },
  'app list': {
    summary: "List a project's app ids.",
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project') };
      const result = await withPaths(config, { stores: 'existing' }, () => appList(config, input));
      const lines = result.apps.map((app) => `${app.appId}  created ${app.createdAt}`);
      return { json: result, text: lines.join('\n') || `Project ${result.projectId} has no app credential` };
    },
  },
  'app revoke': {
    summary: 'Stop an app id and secret at once, everywhere.',
    flags: ['project', 'force', 'json'],
    args: ['<appId>'],
    run: async (config, values, [appId]) => {
      const input = {
        project: required(values.project, '--project'),
        appId: appId!,
        force: values.force ?? false,
      };
      const result = await withPaths(config, { stores: 'existing' }, () => appRevoke(config, input));
      return { json: result, text: `App ${result.appId} is revoked` };
    },
  },
  'keys rotate': {
    summary: 'New signing keys for tokens and links; old ones verify until what they signed expires.',
    flags: ['purpose', 'retire-old', 'json'],
    run: async (config, values) => {
      const input = { purpose: values.purpose, retireOld: values['retire-old'] ?? false };
      const result = await withPaths(config, { stores: 'existing' }, () => keysRotate(config, input));
      return { json: result, text: toKeysText(result.rotated) };
    },
  },
  ...operatorCommands,
  ...endUserCommands,
};

async function setEnabled(
  config: Config,
  values: Values,
  [userId]: string[],
  enabled: boolean,
): Promise<Output> {
  const input = { project: required(values.project, '--project'), userId: userId!, enabled };
  const result = await withPaths(config, { stores: 'existing' }, () => userSetEnabled(config, input));
  return { json: result, text: `User ${result.userId} is ${enabled ? 'enabled' : 'disabled'}` };
}
