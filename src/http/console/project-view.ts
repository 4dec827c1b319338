import type { FileRecord } from '../../domain/files/file-record.ts';
import type { Project } from '../../domain/identity/project-repository.ts';
import { toSettingsView } from '../../domain/identity/settings-view.ts';
import { fileNotFound, notFound } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import { toSettingsSchema } from './project-settings-schema.ts';

/**
 * A project as the console shows it: everything but secrets (stored hashed anyway). `settings`
 * holds the values in force (a default where none was set); `settingsSchema` tells how each
 * is edited and what its default is.
 */
export function toProjectView(project: Project) {
  return {
    id: project.id,
    name: project.name,
    appId: project.appId,
    createdAt: project.createdAt.toISOString(),
    allowedOrigins: project.allowedOrigins,
    settings: toSettingsView(project.settings),
    settingsSchema: toSettingsSchema(project),
  };
}

/** A file of the project (FILE_NOT_FOUND for one of another project, as for none). */
export async function findProjectFile(
  services: Services,
  projectId: string,
  fileId: string,
): Promise<FileRecord> {
  const project = await findProject(services, projectId);
  const file = await services.repositories.files.findById(fileId);
  if (!file || file.projectId !== project.id) throw fileNotFound();
  return file;
}

export async function findProject(services: Services, projectId: string): Promise<Project> {
  const project = await services.repositories.projects.findById(projectId);
  if (!project) throw notFound('project');
  return project;
}
