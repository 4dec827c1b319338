import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import type { TestServer } from '../support/in-process-server.ts';

export type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** A project of its own with these settings: the trash tests change quotas and retention. */
export async function projectWith(
  server: TestServer,
  name: string,
  settings: Partial<ProjectSettings>,
): Promise<ApiClient> {
  const client = await server.createProject(name);
  const { projectId } = client.credentials;
  const current = await server.services.repositories.projects.findById(projectId);
  await server.services.repositories.projects.updateSettings(projectId, {
    ...current!.settings,
    ...settings,
  });
  return client;
}

/** The blob store still holds these bytes (the storage key of the file that stored them). */
export async function isStored(server: TestServer, projectId: string, fileId: string, version: string) {
  return (await server.services.blobs.head(`${projectId}/${fileId}`, version)) !== undefined;
}

/** The version a file's record serves, read from the database (it is not on the wire). */
export async function blobVersionOf(server: TestServer, fileId: string): Promise<string> {
  const { db } = server.services.database;
  const row = await db
    .selectFrom('files')
    .select('blob_version')
    .where('id', '=', fileId)
    .executeTakeFirstOrThrow();
  return row.blob_version!;
}
