import { readFileSync } from 'node:fs';
import type { Command, Flag } from './command.ts';

/** What each flag means, for per-command help (`coffer <command> --help`, `coffer help <command>`). */
export const flagHelp: Record<Flag, string> = {
  'data-dir': 'directory of the embedded stores and the default credentials (COFFER_DATA_DIR, ./data)',
  'database-url': 'sqlite:<path> or postgres://… (COFFER_DATABASE_URL)',
  'storage-url': 'file:<dir> or s3://bucket?… (COFFER_STORAGE_URL)',
  host: 'address to listen on (127.0.0.1)',
  port: 'port to listen on (8080; 0: any free port)',
  'public-url': 'the URL clients reach the service at, for absolute links',
  'tls-cert': 'PEM certificate: serve HTTPS',
  'tls-key': 'PEM private key of --tls-cert',
  'trust-proxy':
    'behind TLS proxies: how many (bare: 1; 2 for a load balancer + nginx) or their addresses/networks; the client address and scheme come from what they set in X-Forwarded-*',
  workers: 'server processes (1; use the core count)',
  'log-level': 'fatal, error, warn, info, debug, trace or silent (info)',
  origin: 'a browser origin allowed to call without the secret (repeatable)',
  project: 'the project, by id or name',
  email: "the user's email",
  permission: 'files share: what the grantee may do: read (the only one: a share grants reading)',
  password: 'the password (visible to other local users: prefer --password-stdin or the prompt)',
  'password-stdin': 'read the password from standard input (one line)',
  role: 'the role (user by default)',
  name: "project key: the service key's name (lowercase letters, digits, . - _); files find: part of the file's name (any case, 3 characters at least)",
  json: 'print JSON (errors as {"code","message"})',
  out: 'export: the directory to write (new or empty); files download, files zip: the file to write',
  in: 'the export directory to read',
  verify: 'check an export (every line, the size and SHA-256 of every verified file) without importing it',
  apply: 'remove what is found (without it: a dry run)',
  'dry-run': 'change nothing: list what would run (migrate: each migration expand or contract)',
  force:
    'app revoke: even the last app credential of the project; files download, files zip: overwrite --out',
  purpose: 'token, link or all (all)',
  yes: 'confirm an irreversible deletion',
  'retire-old': 'stop the older keys at once (after a leak)',
  url: 'login: the server, e.g. https://files.example.com (COFFER_URL); the app secret comes from COFFER_APP_SECRET or a prompt; files zip (bare): print the link instead of downloading',
  'app-id': "the project's app id (COFFER_APP_ID)",
  prefix: 'only files whose filePath starts with this',
  recursive: '-r: a whole folder (`/`-ended; one is added): every file under it, in one transaction',
  owner:
    "whose folder or trash (a user id; another user's needs the project's admin role); files zip: whose --folder",
  path: 'files find: only files whose filePath starts with this; files upload: the filePath to store the file under (the local base name by default); files restore: where to put the trashed file back (its old path by default)',
  user: 'a user id',
  events:
    'webhook add: the event types or groups it receives, comma-separated (file.*,user.login; * by default)',
  description: 'webhook add: a note on the endpoint',
  cursor: 'the next page: the cursor the page before printed',
  type: 'audit: events of this type or group (file.*); repeatable or comma-separated; files find: a content type, exact (image/png) or a family (image/*)',
  actor: "audit: events of this actor (a user's, operator's or app's id)",
  file: 'audit: events of this file id',
  from: 'audit: events at or after this ISO 8601 instant (2026-01-31 or 2026-01-31T12:00:00Z)',
  to: 'audit: events before this ISO 8601 instant',
  'client-id': "project oauth set: the app's client id at the provider",
  'client-secret':
    'project oauth set: the client secret at the provider; - reads it from standard input (one line), out of the process list',
  issuer: 'project oauth set: the OpenID Connect issuer URL (discovery); overrides a preset',
  'authorization-url':
    "project oauth set: an OAuth 2.0 provider's authorization endpoint (with --token-url and --userinfo-url)",
  'token-url': "project oauth set: an OAuth 2.0 provider's token endpoint",
  'userinfo-url': "project oauth set: an OAuth 2.0 provider's user API (who signed in)",
  'version-id': 'a version of the file, as coffer files versions lists it',
  custom:
    'files find: customData key=value, equal at the top level (7 and true as JSON; "7" quoted for the text); repeatable',
  after: 'files find: created after this ISO 8601 date or instant',
  since:
    'scan: only versions created at or after this ISO 8601 date or instant (where a cut-short run says to resume)',
  before: 'files find: created before this ISO 8601 date or instant',
  'min-size': 'files find: at least this many bytes',
  'max-size': 'files find: at most this many bytes',
  sort: 'files find: createdAt (default), name or size',
  order: 'files find: desc (default) or asc',
  scope: 'files find: mine, shared (with you by user, role or folder share) or all (default)',
  limit: 'files find: print at most this many matches (100)',
  folder: 'files zip: the folder to zip (photos/, / for your root)',
  empty: 'files trash: purge every file in the trash, bytes and all (irreversible)',
  help: 'this help',
  version: "Coffer's version",
};

/** Help of one command: its usage line, what it does, and each flag it takes. */
export function commandHelp(name: string, command: Command, commonFlags: readonly Flag[]): string {
  const flags = [...command.flags, ...commonFlags.filter((flag) => flag !== 'help')];
  const width = Math.max(...flags.map((flag) => flag.length)) + 4;
  return [
    `Usage: coffer ${[name, ...(command.args ?? []), '[flags]'].join(' ')}`,
    '',
    command.summary,
    '',
    'Flags:',
    ...flags.map((flag) => `  ${`--${flag}`.padEnd(width)}${flagHelp[flag]}`),
  ].join('\n');
}

/**
 * Help of a group (`coffer help files`): each of its commands with its arguments and what it
 * does; undefined when no command starts with `group`.
 */
export function groupHelp(group: string, commands: Record<string, Command>): string | undefined {
  const members = Object.entries(commands).filter(([name]) => name.startsWith(`${group} `));
  if (members.length === 0) return undefined;
  const usages = members.map(([name, command]) => `coffer ${[name, ...(command.args ?? [])].join(' ')}`);
  const width = Math.max(...usages.map((line) => line.length)) + 3;
  return [
    `Commands of coffer ${group} (coffer help ${group} <command> for its flags):`,
    ...members.map(([, command], index) => `  ${usages[index]!.padEnd(width)}${command.summary}`),
  ].join('\n');
}

/** The version in package.json. */
export function cofferVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return packageJson.version;
}
