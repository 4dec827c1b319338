import type { NewFile, PermissionScope } from '../../src/domain/files/file-record.ts';
import { defaultProjectSettings } from '../../src/domain/identity/project-settings.ts';
import { newId } from '../../src/domain/ids.ts';
import type { Database } from '../../src/persistence/database.ts';
import type { Repositories } from '../../src/persistence/repositories/create-repositories.ts';

/** What the repository contract sections share: one migrated database and its repositories. */
export type RepositoryFixture = {
  database: Database;
  repos: Repositories;
  /** Another handle to the same database (a second process, a second cluster worker). */
  openAnother(): Promise<{ database: Database; repos: Repositories }>;
};

export const T0 = new Date('2026-11-22T01:15:31.123Z');
export const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export async function newProjectId(repos: Repositories): Promise<string> {
  const project = await repos.projects.create({
    id: newId(),
    name: `p-${newId()}`,
    appId: newId(),
    appSecretHash: 'f'.repeat(64),
    allowedOrigins: [],
    adminRole: 'admin',
    settings: defaultProjectSettings,
  });
  return project.id;
}

export function newFile(projectId: string, overrides: Partial<NewFile> = {}): NewFile {
  return {
    id: newId(),
    projectId,
    creatorId: newId(),
    filePath: `docs/${newId()}.txt`,
    permissionScope: 'user' as PermissionScope,
    uploadExpiresAt: seconds(T0) + 3600,
    ...overrides,
  };
}

/** A fresh enabled user of the project, role `user`. */
export function newUser(repos: Repositories, projectId: string) {
  return repos.users.create({
    id: newId(),
    projectId,
    email: `${newId()}@example.com`,
    passwordHash: 'x',
    role: 'user',
    displayName: 'u',
    enabled: true,
  });
}
