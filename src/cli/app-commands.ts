import type { Config } from '../config/config.ts';
import { systemClock } from '../domain/clock.ts';
import { createAppCredential, revokeAppCredential } from '../domain/identity/app-credentials.ts';
import { getProject, withStores } from './admin-commands.ts';

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
