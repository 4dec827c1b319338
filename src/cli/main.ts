import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config.ts';
import { isAppError } from '../errors/app-error.ts';
import { serve } from '../main.ts';
import { migrate, projectCreate, userCreate, userSetEnabled, userSetRole } from './admin-commands.ts';
import { exportData, importData } from './export-import.ts';

const usage = `Usage:
  coffer serve [--host 127.0.0.1] [--port 8080] [--public-url URL] [--tls-cert F --tls-key F] [--trust-proxy] [--workers N]
  coffer project create <name> [--origin URL]... [--json]
  coffer user create --project <projectId|name> --email E --password P [--role R] [--json]
  coffer user set-role --project <projectId|name> <userId> <role>
  coffer user disable|enable --project <projectId|name> <userId>
  coffer migrate
  coffer export --out DIR          (metadata and verified files' bytes, from the configured stores)
  coffer import --in DIR           (into empty stores: e.g. --database-url postgres://… --storage-url s3://…)
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
  const print = (json: Record<string, unknown>, text: string) =>
    console.log(values.json ? JSON.stringify(json) : text);
  try {
    const config = loadConfig(values as Record<string, string | boolean | undefined>, env);
    const key = [command, sub].filter(Boolean).join(' ');
    const single = ['serve', 'migrate', 'export', 'import'].includes(command) ? command : key;
    switch (single) {
      case 'serve':
        await serve(config);
        return 0;
      case 'migrate':
        await migrate(config);
        print({ migrated: true }, 'The database schema is up to date.');
        return 0;
      case 'export': {
        const counts = await exportData(config, required(values.out, '--out'));
        print(counts, `Exported ${JSON.stringify(counts)} to ${values.out}`);
        return 0;
      }
      case 'import': {
        const counts = await importData(config, required(values.in, '--in'));
        print(counts, `Imported ${JSON.stringify(counts)} from ${values.in}`);
        return 0;
      }
      case 'project create': {
        const result = await projectCreate(config, {
          name: required(rest[0], '<name>'),
          origins: values.origin ?? [],
        });
        print(
          result,
          `Project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`,
        );
        return 0;
      }
      case 'user create': {
        const result = await userCreate(config, {
          project: required(values.project, '--project'),
          email: required(values.email, '--email'),
          password: required(values.password, '--password'),
          role: values.role,
        });
        print(result, `User ${result.userId}`);
        return 0;
      }
      case 'user set-role': {
        const result = await userSetRole(config, {
          project: required(values.project, '--project'),
          userId: required(rest[0], '<userId>'),
          role: required(rest[1], '<role>'),
        });
        print(result, `User ${result.userId} now has role ${result.role}`);
        return 0;
      }
      case 'user disable':
      case 'user enable': {
        const enabled = sub === 'enable';
        const result = await userSetEnabled(config, {
          project: required(values.project, '--project'),
          userId: required(rest[0], '<userId>'),
          enabled,
        });
        print(result, `User ${result.userId} is ${enabled ? 'enabled' : 'disabled'}`);
        return 0;
      }
      default:
        console.error(`Unknown command: ${positionals.join(' ')}\n\n${usage}`);
        return 2;
    }
  } catch (error) {
    const message = isAppError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    if (values.json)
      console.log(JSON.stringify({ error: isAppError(error) ? error.code : 'FAILED', message }));
    console.error(`coffer: ${message}`);
    return 1;
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required\n\n${usage}`);
  return value;
}
