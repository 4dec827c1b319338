import type { TestServer } from './in-process-server.ts';

/**
 * Sets trashRetentionDays=0 on a project (the server's default one unless named): its deletes
 * are final at once, as before the trash (issue 38). For tests of what a final delete does to
 * bytes, copies and events; test/trash/ covers the trash.
 */
export async function makeDeletesFinal(server: TestServer, projectId = server.credentials.projectId) {
  const project = await server.services.repositories.projects.findById(projectId);
  if (!project) throw new Error(`no project ${projectId}`);
  await server.services.repositories.projects.updateSettings(projectId, {
    ...project.settings,
    trashRetentionDays: 0,
  });
}
