import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { toOrigin } from '../domain/identity/create-project.ts';
import { deleteProject } from '../domain/identity/delete-project.ts';
import { validationFailed } from '../errors/errors.ts';
import {
  describeProject,
  getProject,
  projectCreate,
  projectSet,
  projectShow,
  withStores,
} from './admin-commands.ts';
import type { Command } from './command.ts';
import { withLocalPaths } from './local-paths.ts';

/** `coffer project list`: every project, as `project show` describes it. */
export async function projectList(config: Config) {
  return withStores(config, async (repositories) => ({
    projects: (await repositories.projects.list()).map(describeProject),
  }));
}

/** `coffer project origin add|remove <project> <origin>...`: origins normalised as at creation. */
export async function projectOrigin(
  config: Config,
  input: { action: string; project: string; origins: string[] },
) {
  if (input.action !== 'add' && input.action !== 'remove')
    throw new ConfigError(`${input.action}: write coffer project origin add|remove <project> <origin>...`);
  const origins = input.origins.map(toOrigin);
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const change = input.action === 'add' ? { add: origins, remove: [] } : { add: [], remove: origins };
    const updated = await repositories.projects.changeAllowedOrigins(project.id, change);
    if (!updated) throw validationFailed(`no project ${JSON.stringify(input.project)}`);
    return describeProject(updated);
  });
}

/**
 * `coffer project delete <project> --yes`: irreversible, so refused without --yes (status 2,
 * naming what would go). Safe to run again after it stopped half-way (delete-project.ts).
 */
export async function projectDelete(config: Config, input: { project: string; yes: boolean }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    if (!input.yes) {
      const { users, files } = await repositories.projectDeletion.count(project.id);
      throw new ConfigError(
        `--yes is required: this deletes project ${project.name} (${project.id}) with its ${users} users and ${files} files and their bytes, for good`,
      );
    }
    // The blob stores (the S3 SDK among them) load only for a deletion: not for list, show or set.
    const { openBlobStore } = await import('../blob-stores/open-blob-store.ts');
    const blobs = await openBlobStore(config.storageUrl);
    try {
      return await deleteProject({ deletion: repositories.projectDeletion, blobs, project });
    } finally {
      if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
    }
  });
}

/** `coffer project create|show|set|list|origin|delete`: on the stores directly. */
export const projectCommands: Record<string, Command> = {
  'project create': {
    summary: 'Create a project; prints its app id and secret (shown once).',
    flags: ['origin', 'json'],
    args: ['<name>'],
    run: async (config, values, [name]) => {
      const result = await withLocalPaths(config, { stores: 'create' }, () =>
        projectCreate(config, { name: name!, origins: values.origin ?? [] }),
      );
      const text = `Project ${result.projectId}\n  app id:     ${result.appId}\n  app secret: ${result.appSecret}\n(the secret is shown once; keep it safe)`;
      return { json: result, text };
    },
  },
  'project show': {
    summary: 'Print a project: its app id, allowed origins and settings.',
    flags: ['json'],
    args: ['<project>'],
    run: async (config, _values, [project]) => {
      const result = await withLocalPaths(config, { stores: 'existing' }, () =>
        projectShow(config, { project: project! }),
      );
      return { json: result, text: JSON.stringify(result, null, 2) };
    },
  },
  'project set': {
    summary: 'Change project settings (name=value; name= restores a default).',
    flags: ['json'],
    args: ['<project>', '<name=value>...'],
    run: async (config, _values, [project, ...assignments]) => {
      const input = { project: project!, assignments };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => projectSet(config, input));
      return { json: result, text: `Project ${result.name}: ${JSON.stringify(result.settings)}` };
    },
  },
  'project list': {
    summary: 'List every project.',
    flags: ['json'],
    run: async (config) => {
      const result = await withLocalPaths(config, { stores: 'existing' }, () => projectList(config));
      const lines = result.projects.map(
        (project) =>
          `${project.name}  ${project.projectId}  origins: ${project.allowedOrigins.join(' ') || 'none'}`,
      );
      return { json: result, text: lines.join('\n') || 'No projects' };
    },
  },
  'project origin': {
    summary: 'Add or remove browser origins allowed to call without the secret.',
    flags: ['json'],
    args: ['<add|remove>', '<project>', '<origin>...'],
    run: async (config, _values, [action, project, ...origins]) => {
      const input = { action: action!, project: project!, origins };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => projectOrigin(config, input));
      return {
        json: result,
        text: `Project ${result.name} allows: ${result.allowedOrigins.join(' ') || 'no origin'}`,
      };
    },
  },
  'project delete': {
    summary: 'Delete a project with its users, sessions, files and bytes (irreversible).',
    flags: ['yes', 'json'],
    args: ['<project>'],
    run: async (config, values, [project]) => {
      const input = { project: project!, yes: values.yes ?? false };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => projectDelete(config, input));
      const text = `Deleted project ${result.name} (${result.projectId}): ${result.users} users, ${result.sessions} sessions, ${result.files} files (${result.blobs} blob versions), ${result.appCredentials} app credentials`;
      return { json: result, text };
    },
  },
};
