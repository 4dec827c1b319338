import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { systemClock } from '../domain/clock.ts';
import { createServiceKey, listServiceKeys, revokeServiceKey } from '../domain/identity/service-keys.ts';
import { getProject, withStores } from './admin-commands.ts';
import { type Command, required } from './command.ts';
import { withLocalPaths } from './local-paths.ts';

const actions = ['create', 'list', 'revoke'] as const;
type Action = (typeof actions)[number];

/** `coffer project key create|list|revoke <project> [--name N]`: a project's service keys (issue 35). */
export async function projectKey(config: Config, input: { action: Action; project: string; name?: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const keys = repositories.serviceKeys;
    if (input.action === 'list') return { projectId: project.id, keys: await listServiceKeys(keys, project) };
    const name = required(input.name, '--name');
    if (input.action === 'create') return createServiceKey(keys, project, { name, clock: systemClock });
    await revokeServiceKey(keys, project, name);
    return { projectId: project.id, name, revoked: true };
  });
}

export const serviceKeyCommands: Record<string, Command> = {
  'project key': {
    summary:
      'Service keys: server-only credentials that act as a project admin (webhooks, audit, every file and user). create --name N prints the key once; list; revoke --name N stops it at once, everywhere.',
    flags: ['name', 'json'],
    args: ['<create|list|revoke>', '<projectId|name>'],
    run: async (config, values, [action, project]) => {
      if (!actions.includes(action as Action))
        throw new ConfigError(`${action}: write coffer project key create|list|revoke <project>`);
      const input = { action: action as Action, project: project!, name: values.name };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => projectKey(config, input));
      return { json: result, text: toText(result) };
    },
  },
};

function toText(result: Record<string, unknown>): string {
  if (Array.isArray(result.keys))
    return (
      (result.keys as { name: string; createdAt: string }[])
        .map((key) => `${key.name}  created ${key.createdAt}`)
        .join('\n') || `Project ${result.projectId} has no service key`
    );
  if (typeof result.key === 'string')
    return `Service key ${result.name} of project ${result.projectId}\n  key: ${result.key}\n(shown once; keep it on servers only: send it as Authorization: Bearer <key> with sb-app-id)`;
  return `Service key ${result.name} is revoked`;
}
