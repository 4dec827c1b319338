import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createProject } from '../domain/identity/create-project.ts';
import type { ProjectRepository } from '../domain/identity/project-repository.ts';

export const defaultProjectName = 'default';

/**
 * DESIGN §6: `serve` on an empty data dir creates the project `default` and writes its
 * credentials to `<data-dir>/default-project.json` (mode 0600), saying so. The secret exists
 * nowhere else: it is stored hashed.
 */
export async function ensureDefaultProject(
  projects: ProjectRepository,
  dataDir: string,
  log: (line: string) => void,
): Promise<{ created: boolean }> {
  if (await projects.findByName(defaultProjectName)) return { created: false };
  let created: Awaited<ReturnType<typeof createProject>>;
  try {
    created = await createProject(projects, { name: defaultProjectName });
  } catch (error) {
    if (await projects.findByName(defaultProjectName)) return { created: false }; // another node created it first
    throw error;
  }
  const file = path.resolve(dataDir, 'default-project.json');
  await mkdir(path.dirname(file), { recursive: true });
  const credentials = {
    projectId: created.project.id,
    appId: created.project.appId,
    appSecret: created.appSecret,
  };
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, {
    mode: 0o600,
    flag: existsSync(file) ? 'w' : 'wx',
  });
  log(`created project "default"; its app credentials are in ${file}`);
  return { created: true };
}
