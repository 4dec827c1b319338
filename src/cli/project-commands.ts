import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { toOrigin } from '../domain/identity/create-project.ts';
import { deleteProject } from '../domain/identity/delete-project.ts';
import { validationFailed } from '../errors/errors.ts';
import { openBlobStore } from '../services.ts';
import { describeProject, getProject, withStores } from './admin-commands.ts';

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
    const blobs = openBlobStore(config.storageUrl);
    try {
      return await deleteProject({ deletion: repositories.projectDeletion, blobs, project });
    } finally {
      if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
    }
  });
}
