import type { Command } from './command.ts';

/**
 * Every command, by the module that holds it. A module is imported only when one of its commands
 * runs (or its group's help is asked for): `coffer --help` or `coffer files ls` loads no database
 * driver, server, image library or S3 SDK (issue 43 item 5: a call answers within a second).
 * `names` is what the module's table holds (test/cli/command-loading.test.ts checks it); a
 * command missing here is still found, by loading every module.
 */
type CommandModule = { names: readonly string[]; load(): Promise<Record<string, Command>> };

const commandModules: readonly CommandModule[] = [
  {
    names: ['serve', 'migrate', 'export', 'import', 'gc', 'scan'],
    load: async () => (await import('./instance-commands.ts')).instanceCommands,
  },
  {
    names: [
      'project create',
      'project show',
      'project set',
      'project list',
      'project origin',
      'project delete',
    ],
    load: async () => (await import('./project-commands.ts')).projectCommands,
  },
  {
    names: ['project key'],
    load: async () => (await import('./service-key-commands.ts')).serviceKeyCommands,
  },
  { names: ['project oauth'], load: async () => (await import('./oauth-commands.ts')).oauthCommands },
  {
    names: [
      'user create',
      'user set-role',
      'user list',
      'user find',
      'user delete',
      'user reset-password',
      'user mfa-reset',
      'user disable',
      'user enable',
    ],
    load: async () => (await import('./user-commands.ts')).userCommands,
  },
  {
    names: ['app create', 'app list', 'app revoke'],
    load: async () => (await import('./app-commands.ts')).appCommands,
  },
  { names: ['keys rotate'], load: async () => (await import('./keys-commands.ts')).keysCommands },
  {
    names: ['operator create', 'operator list', 'console', 'operator delete'],
    load: async () => (await import('./operator-commands.ts')).operatorCommands,
  },
  {
    names: [
      'login',
      'logout',
      'files ls',
      'files upload',
      'files download',
      'files share',
      'files unshare',
      'files shares',
      'shared',
      'files mv',
      'files rm',
    ],
    load: async () => (await import('./end-user-commands.ts')).endUserCommands,
  },
  { names: ['files find', 'files zip'], load: async () => (await import('./find-commands.ts')).findCommands },
  {
    names: ['files versions', 'files restore'],
    load: async () => (await import('./version-commands.ts')).versionCommands,
  },
  {
    names: ['files trash', 'files purge'],
    load: async () => (await import('./trash-commands.ts')).trashCommands,
  },
  {
    names: [
      'webhook add',
      'webhook list',
      'webhook show',
      'webhook rm',
      'webhook deliveries',
      'webhook retry',
    ],
    load: async () => (await import('./webhook-commands.ts')).webhookCommands,
  },
  { names: ['audit'], load: async () => (await import('./audit-commands.ts')).auditCommands },
  { names: ['mail test'], load: async () => (await import('./mail-commands.ts')).mailCommands },
];

/** Every command's name, known without loading a command module. */
export const commandNames: readonly string[] = commandModules.flatMap((module) => module.names);

/**
 * The commands whose names pass `wanted`, loading only the modules that hold one; with no such
 * name in the table (a command added to a module but not here), every module.
 */
export async function loadCommands(wanted: (name: string) => boolean): Promise<Record<string, Command>> {
  const holding = commandModules.filter((module) => module.names.some(wanted));
  const tables = await Promise.all(
    (holding.length > 0 ? holding : commandModules).map((module) => module.load()),
  );
  return Object.fromEntries(
    tables.flatMap((table) => Object.entries(table)).filter(([name]) => wanted(name)),
  );
}

/** Every command, every module loaded: for tests and anything listing them all. */
export const loadAllCommands = () => loadCommands(() => true);

/** Each module's table against its names here: what differs (empty when they agree). */
export async function commandTableMismatches(): Promise<string[]> {
  const mismatches: string[] = [];
  for (const module of commandModules) {
    const loaded = Object.keys(await module.load()).sort();
    const listed = [...module.names].sort();
    if (loaded.join() !== listed.join())
      mismatches.push(`listed ${listed.join(', ')}; holds ${loaded.join(', ')}`);
  }
  return mismatches;
}
