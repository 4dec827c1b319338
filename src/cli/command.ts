import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';

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
  'trust-proxy': { type: 'string' },
  workers: { type: 'string' },
  'log-level': { type: 'string' },
  origin: { type: 'string', multiple: true },
  project: { type: 'string' },
  email: { type: 'string' },
  permission: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  role: { type: 'string' },
  name: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  in: { type: 'string' },
  verify: { type: 'string' },
  apply: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  purpose: { type: 'string' },
  yes: { type: 'boolean' },
  'retire-old': { type: 'boolean' },
  url: { type: 'string' },
  'app-id': { type: 'string' },
  prefix: { type: 'string' },
  recursive: { type: 'boolean', short: 'r' },
  owner: { type: 'string' },
  path: { type: 'string' },
  user: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  cursor: { type: 'string' },
  type: { type: 'string', multiple: true },
  actor: { type: 'string' },
  file: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  issuer: { type: 'string' },
  'authorization-url': { type: 'string' },
  'token-url': { type: 'string' },
  'userinfo-url': { type: 'string' },
  'version-id': { type: 'string' },
  empty: { type: 'boolean' },
  custom: { type: 'string', multiple: true },
  after: { type: 'string' },
  since: { type: 'string' },
  before: { type: 'string' },
  'min-size': { type: 'string' },
  'max-size': { type: 'string' },
  sort: { type: 'string' },
  order: { type: 'string' },
  scope: { type: 'string' },
  limit: { type: 'string' },
  folder: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type Flag = keyof typeof options;
export type Values = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>
>['values'];
/**
 * What a command prints: `json` with --json, `text` otherwise; nothing when it printed as it went.
 * `exitStatus` (default 0): a command that reports and still failed (a `coffer scan` cut short).
 */
export type CommandOutput = { json: Record<string, unknown>; text: string; exitStatus?: number } | undefined;

/**
 * One command: the flags it takes besides the common ones, its positional arguments (`<name>`
 * required, `[name]` optional, a last `<name>...` one or more), what it does.
 */
export type Command = {
  /** One line for `coffer help`. */
  summary: string;
  flags: readonly Flag[];
  args?: readonly string[];
  run(config: Config, values: Values, args: string[]): Promise<CommandOutput>;
};

/** Flags every command takes. */
export const commonFlags: readonly Flag[] = ['data-dir', 'database-url', 'storage-url', 'help'];

/**
 * Flags that may stand alone, and what one alone means: `--trust-proxy` took no value before
 * it took a number of hops or addresses (issue 25), and bare it still means the proxy in front;
 * `--url` names the server to `coffer login`, and bare asks `coffer files zip` for the link.
 */
const bareValues: Partial<Record<Flag, string>> = { 'trust-proxy': 'true', url: 'true' };

/** Parses the command line by the flag table; a mistake in it is a ConfigError. */
export function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: withBareValues(argv), options, allowPositionals: true });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (coffer --help lists the commands and flags)`);
  }
}

/** `--trust-proxy` followed by nothing or by another flag becomes `--trust-proxy=true`. */
function withBareValues(argv: string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((arg, index) => {
    const bare = arg.startsWith('--') ? bareValues[arg.slice(2) as Flag] : undefined;
    if (bare === undefined || (end !== -1 && index > end)) return arg;
    const next = argv[index + 1];
    return next === undefined || next.startsWith('-') ? `${arg}=${bare}` : arg;
  });
}

/** The value of a flag the command needs; a ConfigError naming the flag when it is missing. */
export function required(value: string | undefined, flag: string): string {
  if (!value) throw new ConfigError(`${flag} is required`);
  return value;
}
