import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { blobVersionOf, isStored, projectWith } from './trash-support.ts';

/** Issue 38: a user's trash is capped at their byte quota; retention purges old trash. */
describe('trash cap and retention', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const trashPaths = async (client: TestServer['client'], token: string) => {
    const page = await client.call('GET', '/api/v1/trash', { token });
    return (page.body.items as { filePath: string }[]).map((item) => item.filePath).sort();
  };

  it('the cap: past userQuotaBytes, the oldest trashed files are purged first, bytes and all', async () => {
    const client = await projectWith(server, 'trash-cap', { userQuotaBytes: 25 });
    const owner = await client.signup();
    const { projectId } = client.credentials;
    const remove = async (id: string) =>
      assert.equal((await client.call('DELETE', `/api/v1/file/${id}`, { token: owner.token })).status, 204);
    const a = await client.uploadFile(owner.token, 'a', '1234567890');
    const b = await client.uploadFile(owner.token, 'b', '1234567890');
    const oldest = await blobVersionOf(server, a._id);
    // 10 + 10 in the trash: within 25, and out of the quota, so another upload fits.
    await remove(a._id);
    await remove(b._id);
    assert.deepEqual(await trashPaths(client, owner.token), ['a', 'b']);
    const c = await client.uploadFile(owner.token, 'c', '1234567890');
    // 30 in the trash: past it; the oldest goes.
    await remove(c._id);
    assert.deepEqual(await trashPaths(client, owner.token), ['b', 'c']);
    assert.equal(await isStored(server, projectId, a._id, oldest), false);
  });

  it('retention: the sweep purges files trashed longer ago than trashRetentionDays (the current setting)', async () => {
    const client = await projectWith(server, 'trash-retention', { trashRetentionDays: 2 });
    const owner = await client.signup();
    const { projectId } = client.credentials;
    const old = await client.uploadFile(owner.token, 'old', 'old bytes');
    const recent = await client.uploadFile(owner.token, 'recent', 'recent');
    const oldVersion = await blobVersionOf(server, old._id);
    for (const file of [old, recent])
      await client.call('DELETE', `/api/v1/file/${file._id}`, { token: owner.token });
    // Backdate one trashing three days.
    const threeDaysAgo = Date.now() - 3 * 86_400_000;
    await server.services.database.db
      .updateTable('trashed_files')
      .set({ trashed_at: threeDaysAgo })
      .where('id', '=', old._id)
      .execute();
    const report = await server.services.trashPurging.sweepExpired({ maxBatches: 5 });
    assert.ok(report.purged >= 1);
    assert.deepEqual(await trashPaths(client, owner.token), ['recent']);
    assert.equal(await isStored(server, projectId, old._id, oldVersion), false);
  });
});
