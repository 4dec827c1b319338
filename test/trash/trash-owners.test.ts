import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteAccount } from '../../src/domain/identity/delete-account.ts';
import { deleteProject } from '../../src/domain/identity/delete-project.ts';
import { accountDeletion } from '../../src/wiring/account-deletion.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { blobVersionOf, isStored } from './trash-support.ts';

/** Issue 38: deleting a user or a project removes its trashed files and their bytes too. */
describe('trash of a deleted user or project', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const trashedRows = (projectId: string) =>
    server.services.database.db
      .selectFrom('trashed_files')
      .select('id')
      .where('project_id', '=', projectId)
      .execute();

  it('deleting a user purges their trash, bytes and all; their live files go for good, not to the trash', async () => {
    const client = await server.createProject('trash-user');
    const { projectId } = client.credentials;
    const owner = await client.signup();
    const trashed = await client.uploadFile(owner.token, 'trashed.txt', 'trashed');
    const live = await client.uploadFile(owner.token, 'live.txt', 'live');
    const versions = [await blobVersionOf(server, trashed._id), await blobVersionOf(server, live._id)];
    await client.call('DELETE', `/api/v1/file/${trashed._id}`, { token: owner.token });
    const project = await server.services.repositories.projects.findById(projectId);
    const removed = await deleteAccount(
      { ...accountDeletion(server.services), settle: async () => {} },
      project!,
      owner.userId,
    );
    assert.equal(removed.files, 2);
    assert.deepEqual(await trashedRows(projectId), []);
    assert.equal(await isStored(server, projectId, trashed._id, versions[0]!), false);
    assert.equal(await isStored(server, projectId, live._id, versions[1]!), false);
  });

  it('deleting a project removes its trashed files and their bytes', async () => {
    const client = await server.createProject('trash-project');
    const { projectId } = client.credentials;
    const owner = await client.signup();
    const file = await client.uploadFile(owner.token, 'x.txt', 'x bytes');
    const version = await blobVersionOf(server, file._id);
    await client.call('DELETE', `/api/v1/file/${file._id}`, { token: owner.token });
    const project = await server.services.repositories.projects.findById(projectId);
    const report = await deleteProject({
      deletion: server.services.repositories.projectDeletion,
      blobs: server.services.blobs,
      project: project!,
    });
    assert.equal(report.files, 1);
    assert.deepEqual(await trashedRows(projectId), []);
    assert.equal(await isStored(server, projectId, file._id, version), false);
    assert.equal(await server.services.repositories.projects.findById(projectId), undefined);
  });
});
