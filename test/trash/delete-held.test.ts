import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { projectWith } from './trash-support.ts';

/**
 * Issue 38, item 4, as the trash obeys it: a held file cannot be deleted (trashed or deleted for
 * good), alone, in a bulk delete or in a folder delete (which then changes nothing). The hold is
 * set with SQL here: the hold routes are another part's.
 */
describe('held files refuse deletes (FILE_ON_HOLD)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const hold = (fileId: string) =>
    server.services.database.db
      .updateTable('files')
      .set({ hold_reason: 'litigation', held_at: 1, held_by: 'admin' })
      .where('id', '=', fileId)
      .execute();

  for (const trashRetentionDays of [30, 0]) {
    it(`DELETE and bulk delete of a held file: 409 FILE_ON_HOLD, the file stays (trashRetentionDays=${trashRetentionDays})`, async () => {
      const client = await projectWith(server, `held-${trashRetentionDays}`, { trashRetentionDays });
      const owner = await client.signup();
      const held = await client.uploadFile(owner.token, 'held.txt', 'keep me');
      await hold(held._id);
      const refused = await client.call('DELETE', `/api/v1/file/${held._id}`, { token: owner.token });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.body.code, 'FILE_ON_HOLD');
      const bulk = await client.call('POST', '/api/v1/file/delete', {
        token: owner.token,
        body: { fileIds: [held._id] },
      });
      assert.deepEqual(bulk.body.results, [{ fileId: held._id, statusCode: 409, code: 'FILE_ON_HOLD' }]);
      const read = await client.call('GET', `/api/v1/file/${held._id}`, { token: owner.token });
      assert.equal(read.status, 200);
      assert.equal(await (await fetch(read.body.url)).text(), 'keep me');
      const trash = await client.call('GET', '/api/v1/trash', { token: owner.token });
      assert.deepEqual(trash.body.items, []);
    });
  }

  it('a folder delete holding a held file: 409 FILE_ON_HOLD naming it, nothing changes', async () => {
    const client = await projectWith(server, 'held-folder', {});
    const owner = await client.signup();
    await client.uploadFile(owner.token, 'case/a.txt', 'a');
    const held = await client.uploadFile(owner.token, 'case/b/held.txt', 'b');
    await client.uploadFile(owner.token, 'case/c.txt', 'c');
    await hold(held._id);
    const refused = await client.call('POST', '/api/v1/folders/delete', {
      token: owner.token,
      body: { path: 'case/' },
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'FILE_ON_HOLD');
    assert.match(refused.body.message, /case\/b\/held\.txt/);
    const listed = await client.call('GET', '/api/v1/file', { token: owner.token });
    assert.equal(listed.body.total, 3);
    const trash = await client.call('GET', '/api/v1/trash', { token: owner.token });
    assert.deepEqual(trash.body.items, []);
  });
});
