import type { Config } from '../config/config.ts';
import { createAccount, setAccountEnabled, setAccountRole } from '../domain/identity/accounts.ts';
import { assignProjectSettings } from '../domain/identity/assign-project-settings.ts';
import { createProject } from '../domain/identity/create-project.ts';
import type { Project } from '../domain/identity/project-repository.ts';
import { toSettingsView } from '../domain/identity/settings-view.ts';
import { notFound } from '../errors/errors.ts';
import type { Repositories } from '../persistence/repositories/create-repositories.ts';
import { openStores } from '../wiring/open-stores.ts';

// Admin commands work on the stores directly (never over HTTP), also while a server runs on
// the same data: SQLite in WAL mode with BEGIN IMMEDIATE lets both write.

export async function migrate(config: Config): Promise<void> {
  await withStores(config, async () => undefined);
}

export async function projectCreate(config: Config, input: { name: string; origins: string[] }) {
  return withStores(config, async ({ projects }) => {
    const { project, appSecret } = await createProject(projects, {
      name: input.name,
      allowedOrigins: input.origins,
    });
    return { projectId: project.id, appId: project.appId, appSecret };
  });
}

/** What `project show` and `project set` print: the project without its secret's hash. */
export function describeProject(project: Project) {
  return {
    projectId: project.id,
    name: project.name,
    appId: project.appId,
    allowedOrigins: project.allowedOrigins,
    adminRole: project.adminRole,
    settings: toSettingsView(project.settings),
    createdAt: project.createdAt.toISOString(),
  };
}

export async function projectShow(config: Config, input: { project: string }) {
  return withStores(config, async (repositories) =>
    describeProject(await getProject(repositories, input.project)),
  );
}

/** Applies `name=value` settings (all checked first; nothing changes if one is wrong). */
export async function projectSet(config: Config, input: { project: string; assignments: string[] }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const settings = assignProjectSettings(project, input.assignments);
    const updated = await repositories.projects.updateSettings(project.id, settings);
    if (!updated) throw projectNotFound(input.project);
    return describeProject(updated);
  });
}

export async function userCreate(
  config: Config,
  input: { project: string; email: string; password: string; role?: string },
) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const user = await createAccount(repositories.users, project, input);
    return { userId: user.id };
  });
}

export async function userSetRole(config: Config, input: { project: string; userId: string; role: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const user = await setAccountRole(repositories.users, project, input.userId, input.role);
    return { userId: user.id, role: user.role };
  });
}

export async function userSetEnabled(
  config: Config,
  input: { project: string; userId: string; enabled: boolean },
) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const user = await setAccountEnabled(repositories.users, project, input.userId, input.enabled);
    return { userId: user.id, enabled: user.enabled };
  });
}

export async function withStores<T>(
  config: Config,
  work: (repositories: Repositories) => Promise<T>,
): Promise<T> {
  const { database, repositories } = await openStores(config, (line) => console.error(line));
  try {
    return await work(repositories);
  } finally {
    await database.close();
  }
}

/**
 * A project by id, or by name for convenience (`--project default`). An unknown one is
 * NOT_FOUND (exit status 1) in every command, as an unknown user is USER_NOT_FOUND.
 */
export async function getProject(
  repositories: Pick<Repositories, 'projects'>,
  idOrName: string,
): Promise<Project> {
  const project =
    (await repositories.projects.findById(idOrName)) ?? (await repositories.projects.findByName(idOrName));
  if (!project) throw projectNotFound(idOrName);
  return project;
}

const projectNotFound = (idOrName: string) => notFound(`project ${JSON.stringify(idOrName)}`);
