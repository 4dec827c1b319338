import type { Project } from '../../domain/ports.ts';
import { notFound } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';

/** A project as the console shows it: everything but secrets (stored hashed anyway). */
export function toProjectView(project: Project) {
  return {
    id: project.id,
    name: project.name,
    appId: project.appId,
    createdAt: project.createdAt.toISOString(),
    allowedOrigins: project.allowedOrigins,
    settings: project.settings,
  };
}

export async function findProject(services: Services, projectId: string): Promise<Project> {
  const project = await services.repositories.projects.findById(projectId);
  if (!project) throw notFound('project');
  return project;
}
