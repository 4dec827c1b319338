import { validationFailed } from '../../errors/errors.ts';
import { newId, newSecret } from '../ids.ts';
import { hashAppSecret } from './app-secrets.ts';
import type { Project, ProjectRepository } from './project-repository.ts';
import { defaultProjectSettings } from './project-settings.ts';

export type CreatedProject = { project: Project; appSecret: string };

const namePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Creates a project with fresh app credentials; the secret is returned once and stored hashed. */
export async function createProject(
  projects: ProjectRepository,
  input: { name: string; allowedOrigins?: readonly string[]; adminRole?: string },
): Promise<CreatedProject> {
  if (!namePattern.test(input.name)) throw validationFailed('project name: letters, digits, _ . - (1–64)');
  const appSecret = newSecret();
  const adminRole = input.adminRole ?? 'admin';
  const project = await projects.create({
    id: newId(),
    name: input.name,
    appId: newId(),
    appSecretHash: hashAppSecret(appSecret),
    allowedOrigins: (input.allowedOrigins ?? []).map(toOrigin),
    adminRole,
    settings: { ...defaultProjectSettings, adminRoles: [adminRole] },
  });
  return { project, appSecret };
}

/** Normalises `https://App.example.com/` to `https://app.example.com`; refuses anything else. */
export function toOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationFailed(`origin ${JSON.stringify(text)} is not a URL`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin === 'null') {
    throw validationFailed(`origin ${JSON.stringify(text)} must be http(s)://host[:port]`);
  }
  return url.origin;
}
