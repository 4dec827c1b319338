import type { Config } from '../config/config.ts';
import { systemClock } from '../domain/clock.ts';
import { createAppCredential, revokeAppCredential } from '../domain/identity/app-credentials.ts';
import { getProject, withStores } from './admin-commands.ts';
import { type Command, required } from './command.ts';
import { withLocalPaths } from './local-paths.ts';

/** `coffer app create`: a new live credential for the project; its secret is printed once. */
export async function appCreate(config: Config, input: { project: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const issued = await createAppCredential(repositories.appCredentials, project, systemClock);
    return { projectId: project.id, ...issued };
  });
}

/** `coffer app list`: the project's live credentials (ids only: secrets are stored hashed). */
export async function appList(config: Config, input: { project: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const credentials = await repositories.appCredentials.listByProject(project.id);
    const apps = credentials.map((item) => ({ appId: item.appId, createdAt: item.createdAt.toISOString() }));
    return { projectId: project.id, apps };
  });
}

/** `coffer app revoke`: refused at once everywhere; the last credential only with --force. */
export async function appRevoke(config: Config, input: { project: string; appId: string; force: boolean }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    await revokeAppCredential(repositories.appCredentials, project, input);
    return { projectId: project.id, appId: input.appId, revoked: true };
  });
}

/** `coffer app create|list|revoke`: a project's app credentials. */
export const appCommands: Record<string, Command> = {
  'app create': {
    summary: 'Add an app id and secret to a project (the secret is shown once).',
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project') };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => appCreate(config, input));
      const text = `App credential for project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`;
      return { json: result, text };
    },
  },
  'app list': {
    summary: "List a project's app ids.",
    flags: ['project', 'json'],
    run: async (config, values) => {
      const input = { project: required(values.project, '--project') };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => appList(config, input));
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
      const result = await withLocalPaths(config, { stores: 'existing' }, () => appRevoke(config, input));
      return { json: result, text: `App ${result.appId} is revoked` };
    },
  },
};
