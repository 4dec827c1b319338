import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { assignProjectSettings } from '../domain/identity/assign-project-settings.ts';
import {
  maskOAuthTable,
  type OAuthProviderTable,
  providerPresets,
  resolveOAuthProvider,
} from '../domain/identity/oauth-provider-settings.ts';
import type { Project } from '../domain/identity/project-repository.ts';
import type { ProjectSettings } from '../domain/identity/project-settings.ts';
import { notFound, validationFailed } from '../errors/errors.ts';
import { getProject, withStores } from './admin-commands.ts';
import { type Command, required, type Values } from './command.ts';
import { withLocalPaths } from './local-paths.ts';
import { readStdinLine } from './read-password.ts';

const actions = ['list', 'set', 'rm'] as const;
type Action = (typeof actions)[number];

/** The flags of `oauth set` and the provider fields they set (`oauth.<name>.<field>`). */
const fieldFlags = {
  'client-id': 'clientId',
  'client-secret': 'clientSecret',
  issuer: 'issuer',
  'authorization-url': 'authorizationUrl',
  'token-url': 'tokenUrl',
  'userinfo-url': 'userinfoUrl',
} as const;

/** A provider as `oauth list` prints it: its fields, the secret as `(set)`, and whether it can sign in. */
export type ProviderView = Record<string, string | boolean> & { name: string; ready: boolean };

/** `coffer project oauth list <project>`: the project's sign-in providers, secrets never in clear. */
export async function projectOAuthList(config: Config, input: { project: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    return { projectId: project.id, providers: toProviderViews(project.settings.oauth) };
  });
}

/**
 * `coffer project oauth set <project> <name> --client-id … --client-secret …`: the provider is
 * what this command names (fields it leaves out are cleared), through the same settings code as
 * `project set` (all checked before any applies). One it could not sign in with is refused.
 */
export async function projectOAuthSet(
  config: Config,
  input: { project: string; name: string; fields: Record<string, string> },
) {
  const assignments = [
    `oauth.${input.name}=`,
    ...Object.entries(input.fields).map(([field, value]) => `oauth.${input.name}.${field}=${value}`),
  ];
  return changeProviders(config, input.project, (project) => {
    const settings = assignProjectSettings(project, assignments);
    if (!resolveOAuthProvider(settings.oauth, input.name))
      throw validationFailed(
        `${input.name} is no preset (${Object.keys(providerPresets).join(', ')}): give --issuer, or --authorization-url, --token-url and --userinfo-url`,
      );
    return settings;
  });
}

/** `coffer project oauth rm <project> <name>`: the provider stops signing anyone in. */
export async function projectOAuthRemove(config: Config, input: { project: string; name: string }) {
  return changeProviders(config, input.project, (project) => {
    if (!Object.hasOwn(project.settings.oauth, input.name))
      throw notFound(`sign-in provider ${JSON.stringify(input.name)} in project ${project.name}`);
    return assignProjectSettings(project, [`oauth.${input.name}=`]);
  });
}

async function changeProviders(
  config: Config,
  idOrName: string,
  change: (project: Project) => ProjectSettings,
) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, idOrName);
    const updated = await repositories.projects.updateSettings(project.id, change(project));
    if (!updated) throw notFound(`project ${JSON.stringify(idOrName)}`);
    return { projectId: updated.id, providers: toProviderViews(updated.settings.oauth) };
  });
}

function toProviderViews(table: OAuthProviderTable): ProviderView[] {
  return Object.entries(maskOAuthTable(table)).map(([name, fields]) => ({
    name,
    ...fields,
    ready: resolveOAuthProvider(table, name) !== undefined,
  }));
}

function toText(result: { projectId: string; providers: ProviderView[] }): string {
  if (result.providers.length === 0) return `Project ${result.projectId} has no sign-in provider`;
  return result.providers
    .map(({ name, ready, ...fields }) => {
      const shown = Object.entries(fields).map(([field, value]) => `${field}=${value}`);
      return `${name}  ${shown.join('  ')}${ready ? '' : '  (incomplete: cannot sign in)'}`;
    })
    .join('\n');
}

/** The fields `oauth set` was given; `--client-secret -` reads the secret from stdin (never in the process list). */
async function toFields(values: Values): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [flag, field] of Object.entries(fieldFlags)) {
    const value = values[flag as keyof typeof fieldFlags];
    if (value !== undefined) fields[field] = value;
  }
  required(fields.clientId, '--client-id');
  if (required(fields.clientSecret, '--client-secret') === '-')
    fields.clientSecret = await readStdinLine('--client-secret -');
  return fields;
}

export const oauthCommands: Record<string, Command> = {
  'project oauth': {
    summary:
      'Sign-in providers (issue 37): list (secrets shown as (set)); set <name> --client-id … --client-secret …|- [--issuer URL | the three --*-url of an OAuth 2.0 provider] (replaces the provider; google, apple, microsoft, gitlab and github are presets); rm <name>.',
    flags: ['client-id', 'client-secret', 'issuer', 'authorization-url', 'token-url', 'userinfo-url', 'json'],
    args: ['<list|set|rm>', '<projectId|name>', '[provider]'],
    run: async (config, values, [action, project, name]) => {
      if (!actions.includes(action as Action))
        throw new ConfigError(`${action}: write coffer project oauth list|set|rm <project> [provider]`);
      const needsName = () => required(name, '<provider>');
      if (action === 'list' && name !== undefined)
        throw new ConfigError(`unexpected argument "${name}" for coffer project oauth list`);
      const fieldFlag = Object.keys(fieldFlags).find(
        (flag) => values[flag as keyof typeof fieldFlags] !== undefined,
      );
      if (action !== 'set' && fieldFlag !== undefined)
        throw new ConfigError(`--${fieldFlag} applies to coffer project oauth set only`);
      const result = await withLocalPaths(config, { stores: 'existing' }, async () => {
        if (action === 'list') return projectOAuthList(config, { project: project! });
        if (action === 'rm') return projectOAuthRemove(config, { project: project!, name: needsName() });
        const provider = needsName();
        return projectOAuthSet(config, { project: project!, name: provider, fields: await toFields(values) });
      });
      return { json: result, text: toText(result) };
    },
  },
};
