import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { blobVersionOf, isStored } from './trash-support.ts';

/** Issue 38: a folder delete goes to the trash, and every file restores to its place. */
describe('folder delete to the trash', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('every verified file to the trash (unverified ones deleted), bytes kept, folder shares ended; each restores to its place, counts back', async () => {
    const client = server.client;
    const owner = await client.signup();
    const reader = await client.signup();
    const { projectId } = server.credentials;
    const one = await client.uploadFile(owner.token, 'album/one.txt', '12345');
    const two = await client.uploadFile(owner.token, 'album/deep/two.txt', '1234567');
    await client.call('POST', '/api/v1/file', {
      token: owner.token,
      body: { filePath: 'album/pending.txt' },
    });
    await client.call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'album/', user: reader.userId },
    });
    const folderOf = async () =>
      (await client.call('GET', '/api/v1/folders?path=', { token: owner.token })).body;
    const version = await blobVersionOf(server, one._id);

    const deleted = await client.call('POST', '/api/v1/folders/delete', {
      token: owner.token,
      body: { path: 'album/' },
    });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.deleted, 3);
    const listed = await client.call('GET', '/api/v1/file', { token: owner.token });
    assert.equal(listed.body.total, 0);
    assert.ok(await isStored(server, projectId, one._id, version), 'trashed bytes stay');
    const trash = await client.call('GET', '/api/v1/trash', { token: owner.token });
    assert.deepEqual((trash.body.items as { filePath: string }[]).map((item) => item.filePath).sort(), [
      'album/deep/two.txt',
      'album/one.txt',
    ]);

    for (const file of [one, two]) {
      const restored = await client.call('POST', `/api/v1/trash/${file._id}/restore`, { token: owner.token });
      assert.equal(restored.status, 200, restored.text);
    }
    const [album] = (await folderOf()).folders as { path: string; fileCount: number; totalBytes: number }[];
    assert.deepEqual(
      { path: album?.path, fileCount: album?.fileCount, totalBytes: album?.totalBytes },
      { path: 'album/', fileCount: 2, totalBytes: 12 },
      'the folder counts are back (the unverified upload was deleted for good)',
    );
    const read = await client.call('GET', `/api/v1/file/${two._id}`, { token: owner.token });
    assert.equal(read.body.filePath, 'album/deep/two.txt');
    const byReader = await client.call('GET', `/api/v1/file/${two._id}`, { token: reader.token });
    assert.equal(byReader.status, 403, 'the folder delete ended the folder share, as a final one does');
  });
});
