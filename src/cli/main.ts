import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config/config.ts';
import { isAppError } from '../errors/app-error.ts';
import { serve } from '../main.ts';
import { migrate, projectCreate, userCreate, userSetEnabled, userSetRole } from './admin-commands.ts';
import { exportData, importData } from './export-import.ts';
import { collectGarbage, toGcText } from './gc-command.ts';

const usage = `Usage:
  coffer serve [--host 127.0.0.1] [--port 8080] [--public-url URL] [--tls-cert F --tls-key F] [--trust-proxy] [--workers N]
  coffer project create <name> [--origin URL]... [--json]
  coffer user create --project <projectId|name> --email E --password P [--role R] [--json]
  coffer user set-role --project <projectId|name> <userId> <role>
  coffer user disable|enable --project <projectId|name> <userId>
  coffer migrate
  coffer export --out DIR          (metadata and verified files' bytes, from the configured stores)
  coffer import --in DIR           (into empty stores: e.g. --database-url postgres://… --storage-url s3://…)
  coffer gc [--apply] [--json]     (reports stray blobs: a dry run unless --apply, which removes them)
Every command takes --data-dir (COFFER_DATA_DIR, default ./data), --database-url and --storage-url.`;

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
  apply: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs one `coffer` command; answers the process exit code. Admin commands call services, never HTTP. */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return values.help ? 0 : 2;
  }
  const handler = commands[[command, sub].filter(Boolean).join(' ')] ?? commands[command];
  if (!handler) {
    console.error(`Unknown command: ${positionals.join(' ')}\n\n${usage}`);
    return 2;
  }
  try {
    const config = loadConfig(values as Record<string, string | boolean | undefined>, env);
    const output = await handler(config, values, rest);
    if (output) console.log(values.json ? JSON.stringify(output.json) : output.text);
    return 0;
  } catch (error) {
    const message = isAppError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    if (values.json)
      console.log(JSON.stringify({ error: isAppError(error) ? error.code : 'FAILED', message }));
    console.error(`coffer: ${message}`);
    return 1;
  }
}

type Values = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>
>['values'];
type Output = { json: Record<string, unknown>; text: string } | undefined;
type Command = (config: Config, values: Values, args: string[]) => Promise<Output>;

/** Every command: what it does and what it prints (JSON with --json, a sentence otherwise). */
const commands: Record<string, Command> = {
  serve: async (config) => {
    await serve(config);
    return undefined;
  },
  migrate: async (config) => {
    await migrate(config);
    return { json: { migrated: true }, text: 'The database schema is up to date.' };
  },
  export: async (config, values) => {
    const counts = await exportData(config, required(values.out, '--out'));
    return { json: counts, text: `Exported ${JSON.stringify(counts)} to ${values.out}` };
  },
  import: async (config, values) => {
    const counts = await importData(config, required(values.in, '--in'));
    return { json: counts, text: `Imported ${JSON.stringify(counts)} from ${values.in}` };
  },
  gc: async (config, values) => {
    const report = await collectGarbage(config, { apply: values.apply ?? false });
    return { json: report, text: toGcText(report) };
  },
  'project create': async (config, values, args) => {
    const result = await projectCreate(config, {
      name: required(args[0], '<name>'),
      origins: values.origin ?? [],
    });
    const text = `Project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`;
    return { json: result, text };
  },
  'user create': async (config, values) => {
    const result = await userCreate(config, {
      project: required(values.project, '--project'),
      email: required(values.email, '--email'),
      password: required(values.password, '--password'),
      role: values.role,
    });
    return { json: result, text: `User ${result.userId}` };
  },
  'user set-role': async (config, values, args) => {
    const result = await userSetRole(config, {
      project: required(values.project, '--project'),
      userId: required(args[0], '<userId>'),
      role: required(args[1], '<role>'),
    });
    return { json: result, text: `User ${result.userId} now has role ${result.role}` };
  },
  'user disable': (config, values, args) => setEnabled(config, values, args, false),
  'user enable': (config, values, args) => setEnabled(config, values, args, true),
};

async function setEnabled(config: Config, values: Values, args: string[], enabled: boolean): Promise<Output> {
  const result = await userSetEnabled(config, {
    project: required(values.project, '--project'),
    userId: required(args[0], '<userId>'),
    enabled,
  });
  return { json: result, text: `User ${result.userId} is ${enabled ? 'enabled' : 'disabled'}` };
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required\n\n${usage}`);
  return value;
}
