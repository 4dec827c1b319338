import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config/config.ts';
import { ConfigError, isConfigError } from '../config/config-error.ts';
import { isAppError } from '../errors/app-error.ts';
import { serve } from '../main.ts';
import { migrate, projectCreate, userCreate, userSetEnabled, userSetRole } from './admin-commands.ts';
import { exportData, importData } from './export-import.ts';
import { type LocalPathsUse, prepareLocalPaths } from './local-paths.ts';
import { restrictNewFilesToOwner, tightenExistingFiles } from './private-files.ts';
import { logStartWarning } from './start-log.ts';

const usage = `Usage:
  coffer serve [--host 127.0.0.1] [--port 8080] [--public-url URL] [--tls-cert F --tls-key F] [--trust-proxy] [--workers N] [--log-level L]
  coffer project create <name> [--origin URL]... [--json]
  coffer user create --project <projectId|name> --email E --password P [--role R] [--json]
  coffer user set-role --project <projectId|name> <userId> <role>
  coffer user disable|enable --project <projectId|name> <userId>
  coffer migrate
  coffer export --out DIR          (metadata, signing keys and verified files' bytes: keep it secret)
  coffer import --in DIR           (into empty stores: e.g. --database-url postgres://… --storage-url s3://…)
Every command takes --data-dir (COFFER_DATA_DIR, default ./data), --database-url and --storage-url.
Exit status: 0 done, 1 failed, 2 a flag, variable or file to fix (the message names it).`;

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
  role: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  in: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flag = keyof typeof options;
type Values = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>
>['values'];
type Output = { json: Record<string, unknown>; text: string } | undefined;

/** One command: the flags it takes besides the common ones, its positional arguments, what it does. */
type Command = {
  flags: readonly Flag[];
  args?: readonly string[];
  run(config: Config, values: Values, args: string[]): Promise<Output>;
};

const commonFlags: readonly Flag[] = ['data-dir', 'database-url', 'storage-url', 'help'];

/** Runs one `coffer` command; answers the process exit code. Admin commands call services, never HTTP. */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  restrictNewFilesToOwner();
  let json = false;
  try {
    const { values, positionals } = parseCommandLine(argv);
    json = values.json === true;
    if (values.help || positionals.length === 0) {
      console.log(usage);
      return values.help ? 0 : 2;
    }
    const { name, command, args } = findCommand(positionals);
    assertInvocation(name, command, values, args);
    const config = loadConfig(values as Record<string, string | boolean | undefined>, env);
    const output = await command.run(config, values, args);
    if (output) console.log(json ? JSON.stringify(output.json) : output.text);
    return 0;
  } catch (error) {
    const message = toOneLine(error);
    if (json) console.log(JSON.stringify({ error: isAppError(error) ? error.code : 'FAILED', message }));
    console.error(`coffer: ${message}`);
    return toExitStatus(error);
  }
}

/** 2: the invocation needs fixing (a flag, a variable, a file, a malformed value); 1: the work failed. */
function toExitStatus(error: unknown): number {
  return isConfigError(error) || (isAppError(error) && error.code === 'VALIDATION_FAILED') ? 2 : 1;
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (coffer --help lists the commands and flags)`);
  }
}

/** `user set-role …` → the command `user set-role` and its arguments. */
function findCommand(positionals: string[]): { name: string; command: Command; args: string[] } {
  const [first, second, ...rest] = positionals as [string, ...string[]];
  const pair = `${first} ${second}`;
  if (commands[pair]) return { name: pair, command: commands[pair], args: rest };
  const subcommands = Object.keys(commands)
    .filter((name) => name.startsWith(`${first} `))
    .map((name) => name.slice(first.length + 1));
  if (subcommands.length > 0) {
    const problem = second === undefined ? `coffer ${first} needs a subcommand` : `unknown command "${pair}"`;
    throw new ConfigError(`${problem}: coffer ${first} ${subcommands.join('|')}`);
  }
  const command = commands[first];
  if (!command) throw new ConfigError(`unknown command "${first}" (coffer --help lists the commands)`);
  return { name: first, command, args: positionals.slice(1) };
}

/** A flag the command does not take, or an argument too many or too few, is a mistake to point out. */
function assertInvocation(name: string, command: Command, values: Values, args: string[]): void {
  for (const flag of Object.keys(values) as Flag[]) {
    if (!commonFlags.includes(flag) && !command.flags.includes(flag))
      throw new ConfigError(`--${flag} does not apply to coffer ${name}`);
  }
  const expected = command.args ?? [];
  if (args.length > expected.length)
    throw new ConfigError(`unexpected argument "${args[expected.length]}" for coffer ${name}`);
  if (args.length < expected.length)
    throw new ConfigError(`${expected[args.length]} is required: coffer ${name} ${expected.join(' ')}`);
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new ConfigError(`${flag} is required`);
  return value;
}

/** Messages are one line; some library errors (an AggregateError of refused connections) have none. */
function toOneLine(error: unknown): string {
  const text = isAppError(error)
    ? `${error.code}: ${error.message}`
    : String((error as Error).message ?? error);
  const line = text.split('\n')[0]!.trim();
  return line || (error as NodeJS.ErrnoException).code || (error as Error).name || 'failed';
}

async function withPaths<T>(config: Config, use: LocalPathsUse, work: () => Promise<T>): Promise<T> {
  await prepareLocalPaths(config, use);
  return work();
}

/** Every command: what it does and what it prints (JSON with --json, a sentence otherwise). */
const commands: Record<string, Command> = {
  serve: {
    flags: ['host', 'port', 'public-url', 'tls-cert', 'tls-key', 'trust-proxy', 'workers', 'log-level'],
    run: async (config) => {
      await prepareLocalPaths(config, { dataDir: true, stores: 'create' });
      await tightenExistingFiles(config, logStartWarning);
      await serve(config);
      return undefined;
    },
  },
  migrate: {
    flags: ['json'],
    run: async (config) => {
      await withPaths(config, { stores: 'create' }, () => migrate(config));
      return { json: { migrated: true }, text: 'The database schema is up to date.' };
    },
  },
  export: {
    flags: ['out', 'json'],
    run: async (config, values) => {
      const counts = await exportData(config, required(values.out, '--out'));
      return { json: counts, text: `Exported ${JSON.stringify(counts)} to ${values.out}` };
    },
  },
  import: {
    flags: ['in', 'json'],
    run: async (config, values) => {
      const counts = await importData(config, required(values.in, '--in'));
      return { json: counts, text: `Imported ${JSON.stringify(counts)} from ${values.in}` };
    },
  },
  'project create': {
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
  'user create': {
    flags: ['project', 'email', 'password', 'role', 'json'],
    run: async (config, values) => {
      const input = {
        project: required(values.project, '--project'),
        email: required(values.email, '--email'),
        password: required(values.password, '--password'),
        role: values.role,
      };
      const result = await withPaths(config, { stores: 'existing' }, () => userCreate(config, input));
      return { json: result, text: `User ${result.userId}` };
    },
  },
  'user set-role': {
    flags: ['project', 'json'],
    args: ['<userId>', '<role>'],
    run: async (config, values, [userId, role]) => {
      const input = { project: required(values.project, '--project'), userId: userId!, role: role! };
      const result = await withPaths(config, { stores: 'existing' }, () => userSetRole(config, input));
      return { json: result, text: `User ${result.userId} now has role ${result.role}` };
    },
  },
  'user disable': {
    flags: ['project', 'json'],
    args: ['<userId>'],
    run: (c, v, a) => setEnabled(c, v, a, false),
  },
  'user enable': {
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
): Promise<Output> {
  const input = { project: required(values.project, '--project'), userId: userId!, enabled };
  const result = await withPaths(config, { stores: 'existing' }, () => userSetEnabled(config, input));
  return { json: result, text: `User ${result.userId} is ${enabled ? 'enabled' : 'disabled'}` };
}
