import { CofferError } from '../../packages/client/src/index.ts';
import { loadConfig } from '../config/config.ts';
import { ConfigError, isConfigError } from '../config/config-error.ts';
import { isAppError } from '../errors/app-error.ts';
import { type Command, commonFlags, type Flag, parseCommandLine, type Values } from './command.ts';
import { cofferVersion, commandHelp, groupHelp } from './command-help.ts';
import { commandNames, loadCommands } from './commands.ts';
import { restrictNewFilesToOwner } from './private-files.ts';

/** `coffer --help`: every command, and the project settings (loaded only here). */
const usage =
  async () => `Usage (coffer help <group> for its commands, coffer help <command> for its flags; coffer --version):
  coffer serve [--host 127.0.0.1] [--port 8080] [--public-url URL] [--tls-cert F --tls-key F] [--trust-proxy [HOPS|ADDRESSES]] [--workers N] [--log-level L]
  coffer project create <name> [--origin URL]... [--json]
  coffer project show <projectId|name> [--json]
  coffer project set <projectId|name> <name=value>... [--json]   (settings below; name= restores a default)
  coffer project list [--json]
  coffer project origin add|remove <projectId|name> <origin>... [--json]   (CORS and origin-only calls; at once on running servers)
  coffer project key create|revoke <projectId|name> --name N [--json]   (a service key: a server-only admin credential, shown once)
  coffer project key list <projectId|name> [--json]
  coffer project oauth list <projectId|name> [--json]   (sign-in providers; secrets shown as (set))
  coffer project oauth set <projectId|name> <provider> --client-id ID --client-secret S|- [--issuer URL | --authorization-url U --token-url U --userinfo-url U] [--json]
    (replaces the provider; --client-secret - reads the secret from stdin; google, apple, microsoft, gitlab, github are presets)
  coffer project oauth rm <projectId|name> <provider> [--json]
  coffer project delete <projectId|name> --yes [--json]   (irreversible: users, sessions, files and their bytes; safe to run again)
  coffer user create --project <projectId|name> --email E [--password P | --password-stdin] [--role R] [--json]
  coffer user set-role --project <projectId|name> <userId> <role>
  coffer user disable|enable --project <projectId|name> <userId>
  coffer user list --project <projectId|name> [--json]        (--json: one JSON object per line)
  coffer user find --project <projectId|name> <email> [--json]
  coffer user delete --project <projectId|name> <userId> [--json]   (with their files, shares and sessions)
  coffer user reset-password --project <projectId|name> <userId> [--password-stdin] [--json]
    (without --password or --password-stdin, a terminal prompts for the password, without echo)
  coffer app create --project <projectId|name> [--json]   (a new app id and secret; the secret is shown once)
  coffer app list --project <projectId|name> [--json]
  coffer app revoke --project <projectId|name> <appId> [--force] [--json]   (--force: even the last one)
  coffer keys rotate [--purpose token|link|all] [--retire-old] [--json]   (new signing keys; old ones verify until what
                                   they signed expires, or, with --retire-old after a leak, stop at once)
  coffer operator create --email E [--password-stdin] [--json]   (may sign in to the console, /console: every project)
  coffer operator list [--json]
  coffer operator delete <email> [--json]   (their console sessions end at once)
  coffer console [--email E] [--public-url URL | --host H --port P] [--json]   (a console sign-in link: good once, for 10 minutes)
  coffer webhook add <projectId|name> <url> [--events file.*,user.login] [--description text] [--json]   (the secret is shown once)
  coffer webhook list <projectId|name> [--json]
  coffer webhook show|rm <projectId|name> <webhookId> [--json]
  coffer webhook deliveries <projectId|name> <webhookId> [--cursor C] [--json]
  coffer webhook retry <projectId|name> <webhookId> <deliveryId> [--json]   (a running server attempts it at once)
  coffer audit <projectId|name> [--type T]... [--actor ID] [--file ID] [--from ISO] [--to ISO] [--cursor C] [--json]
  coffer mail test <to> [--project <projectId|name>] [--json]   (queues a test mail; a running server sends it)
  coffer migrate [--dry-run] [--json]   (--dry-run: the pending migrations, each expand or CONTRACT: may older nodes keep serving?)
  coffer export --out DIR          (metadata, signing keys and verified files' bytes, from one snapshot: keep it secret)
  coffer export --verify DIR       (checks an export as import would, bytes included, without importing it)
  coffer import --in DIR           (into empty stores: e.g. --database-url postgres://… --storage-url s3://…)
  coffer gc [--apply] [--json]     (reports stray blobs: a dry run unless --apply, which removes them)
  coffer scan <projectId|name> [--since ISO] [--json]   (re-scans stored versions with COFFER_SCAN_URL's scanner after a
                                   signature update; a hit quarantines the file; a cut-short run says where to resume)
As a user of a running server (the session is kept in ~/.config/coffer/credentials.json, mode 0600):
  coffer login --url URL --app-id ID --email E [--password-stdin]   (the app secret: COFFER_APP_SECRET or a prompt)
  coffer logout
  coffer files ls [--prefix P] [--json]          (--json: one JSON object per line)
  coffer files ls <folder/> [--owner ID] [--json]   (the folder's tree with sizes; / is your root)
  coffer files upload <localPath> [--path filePath] [--json]
  coffer files download <fileId> [--out F] [--force] [--json]
  coffer files find [--name N] [--type T] [--custom key=value]... [--after ISO] [--before ISO] [--min-size B] [--max-size B]
    [--sort createdAt|name|size] [--order asc|desc] [--scope mine|shared|all] [--path P] [--limit 100] [--json]
  coffer files zip --folder <folder/> [--owner ID] | <fileId>... [--out F.zip] [--force] [--url] [--json]
    (one ZIP of the folder's files or of the ids; a broken download resumes once; --url prints the link instead)
  coffer files share <filePath|fileId> --user <userId> | --role <role> | --email E [--permission read] [--json]
    (--email: one of the project's users; an unknown email exits 2)
  coffer files unshare <fileId> --user <userId> | --role <role> [--json]
  coffer files share|unshare <folder/> --user <userId> | --role <role> | --email E [--owner ID] [--json]
    (every file under the folder, present and future; unsharing ends the links it let the grantee take)
  coffer files shares <folder/> [--owner ID] [--json]   (the shares reaching it: its own and its ancestors')
  coffer shared [--json]           (what others shared with you, newest first; --json: one item per line)
  coffer files mv <fileId> <filePath> [--json]
  coffer files mv -r <from/> <to/> [--owner ID] [--json]   (every file under the folder, in one transaction)
  coffer files rm <fileId>... [--json]
  coffer files rm -r <folder/>... [--owner ID] [--json]   (every file under each folder, in one transaction each)
  coffer files versions <fileId> [--json]   (its versions, the current one first)
  coffer files restore <fileId> --version-id V [--json]   (that version's bytes current again, as a new version)
  coffer files trash [--owner ID] [--json]   (your deleted files, newest first; --json: one item per line)
  coffer files trash --empty [--owner ID] [--json]   (purges them all, bytes and all)
  coffer files restore <fileId> [--path filePath] [--json]   (from the trash: at its old path or --path)
  coffer files purge <fileId> [--json]   (from the trash, for good)
Export, import, upload, download and zip show progress on stderr: a bar at a terminal, JSON lines with --json.
Project settings:
${await settingsHelp()}
Every command takes --data-dir (COFFER_DATA_DIR, default ./data), --database-url and --storage-url.
Exit status: 0 done, 1 failed (an unknown project or user too), 2 a flag, variable, file or value to fix (the message names it;
  files share --email with an email no user has too).`;

async function settingsHelp(): Promise<string> {
  const { projectSettingDefinitions, projectSettingNames } = await import(
    '../domain/identity/project-settings.ts'
  );
  return projectSettingNames
    .map((name) => `  ${name.padEnd(20)} ${projectSettingDefinitions[name].description}`)
    .join('\n');
}

/**
 * Runs one `coffer` command; answers the process exit code. Admin commands call services, never
 * HTTP; the end-user commands (login, files) are clients of a running server.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  restrictNewFilesToOwner();
  // Known before parsing, so that a command line that does not parse still answers in JSON.
  let json = argv.includes('--json');
  try {
    const { values, positionals } = parseCommandLine(argv);
    json = values.json === true;
    if (values.version || (positionals.length === 1 && positionals[0] === 'version')) {
      console.log(json ? JSON.stringify({ version: cofferVersion() }) : `coffer ${cofferVersion()}`);
      return 0;
    }
    if (positionals[0] === 'help') return await printHelp(positionals.slice(1));
    if (positionals.length === 0) {
      if (values.help) return await printHelp([]);
      throw new ConfigError('a command is needed (coffer help lists them)');
    }
    const group = positionals.length === 1 && values.help ? await loadGroupHelp(positionals[0]!) : undefined;
    if (group) {
      console.log(group);
      return 0;
    }
    const { name, command, args } = await findCommand(positionals);
    if (values.help) {
      console.log(commandHelp(name, command, commonFlags));
      return 0;
    }
    assertInvocation(name, command, values, args);
    const config = loadConfig(values as Record<string, string | boolean | undefined>, env);
    const output = await command.run(config, values, args);
    if (output) console.log(json ? JSON.stringify(output.json) : output.text);
    return output?.exitStatus ?? 0;
  } catch (error) {
    const message = toOneLine(error);
    if (json) console.log(JSON.stringify({ code: toErrorCode(error), message }));
    console.error(`coffer: ${message}`);
    return toExitStatus(error);
  }
}

/** `coffer help`: every command; `coffer help <group>`: its commands; `coffer help <command>`: its flags. */
async function printHelp(words: string[]): Promise<number> {
  const help =
    words.length === 0 ? await usage() : words.length === 1 ? await loadGroupHelp(words[0]!) : undefined;
  if (help) {
    console.log(help);
    return 0;
  }
  const { name, command } = await findCommand(words);
  console.log(commandHelp(name, command, commonFlags));
  return 0;
}

/** `coffer help <group>`, loading only the modules of the group's commands; undefined for no group. */
async function loadGroupHelp(group: string): Promise<string | undefined> {
  if (!commandNames.some((name) => name.startsWith(`${group} `))) return undefined;
  return groupHelp(group, await loadCommands((name) => name.startsWith(`${group} `)));
}

/** The stable code of a failure: the AppError's (or the server's), INVALID_INVOCATION for a flag or argument to fix. */
function toErrorCode(error: unknown): string {
  if (isAppError(error) || error instanceof CofferError) return error.code;
  return isConfigError(error) ? 'INVALID_INVOCATION' : 'FAILED';
}

/** 2: the invocation needs fixing (a flag, a variable, a file, a malformed value); 1: the work failed. */
function toExitStatus(error: unknown): number {
  const code = isAppError(error) || error instanceof CofferError ? error.code : undefined;
  return isConfigError(error) || code === 'VALIDATION_FAILED' ? 2 : 1;
}

/** `user set-role …` → the command `user set-role` and its arguments. */
async function findCommand(
  positionals: string[],
): Promise<{ name: string; command: Command; args: string[] }> {
  const [first, second, ...rest] = positionals as [string, ...string[]];
  const pair = `${first} ${second}`;
  const commands = await loadCommands((name) => name === pair || name === first);
  if (commands[pair]) return { name: pair, command: commands[pair], args: rest };
  const subcommands = [...new Set([...commandNames, ...Object.keys(commands)])]
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
  // A last argument written `<name>...` takes one or more; one written `[name]` may be left out.
  const variadic = expected.at(-1)?.endsWith('...') ?? false;
  const needed = expected.filter((arg) => !arg.startsWith('[')).length;
  if (args.length > expected.length && !variadic)
    throw new ConfigError(`unexpected argument "${args[expected.length]}" for coffer ${name}`);
  if (args.length < needed)
    throw new ConfigError(`${expected[args.length]} is required: coffer ${name} ${expected.join(' ')}`);
}

/** Messages are one line; some library errors (an AggregateError of refused connections) have none. */
function toOneLine(error: unknown): string {
  const text =
    isAppError(error) || error instanceof CofferError
      ? `${error.code}: ${error.message}`
      : String((error as Error).message ?? error);
  const line = text.split('\n')[0]!.trim();
  return line || (error as NodeJS.ErrnoException).code || (error as Error).name || 'failed';
}
