import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type Account, blobVersionOf, isStored, projectWith } from './trash-support.ts';

/** Issue 38, item 3: deletes go to the trash; a user lists, restores and purges their own. */
describe('trash', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const api = () => server.client;
  const getFile = (token: string, id: string) => api().call('GET', `/api/v1/file/${id}`, { token });
  const remove = (token: string, id: string) => api().call('DELETE', `/api/v1/file/${id}`, { token });
  const restore = (token: string, id: string, body?: unknown) =>
    api().call('POST', `/api/v1/trash/${id}/restore`, { token, body });
  const trashOf = async (account: Account, query = '') => {
    const page = await api().call('GET', `/api/v1/trash${query}`, { token: account.token });
    assert.equal(page.status, 200, page.text);
    return page.body as { items: Record<string, unknown>[]; nextCursor: string | null };
  };
  const pathsOf = async (account: Account) => {
    const listed = await api().call('GET', '/api/v1/file?pageSize=100', { token: account.token });
    return (listed.body.docs as { filePath: string }[]).map((doc) => doc.filePath).sort();
  };

  it('delete → trash: out of listings and folders, 404 on read, links stop, path free; bytes kept, quota freed', async () => {
    const owner = await api().signup();
    const { projectId } = server.credentials;
    const file = await api().uploadFile(owner.token, 'docs/report.txt', 'report bytes');
    const link = (await getFile(owner.token, file._id)).body.url as string;
    const version = await blobVersionOf(server, file._id);
    const usage = () => server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    assert.deepEqual((await usage()).user, { files: 1, bytes: 12 });

    const deleted = await remove(owner.token, file._id);
    assert.equal(deleted.status, 204, deleted.text);
    assert.deepEqual(await pathsOf(owner), []);
    const folder = await api().call('GET', '/api/v1/folders?path=docs/', { token: owner.token });
    assert.deepEqual(folder.body.files ?? [], [], folder.text);
    const read = await getFile(owner.token, file._id);
    assert.equal(read.status, 404);
    assert.equal(read.body.code, 'FILE_NOT_FOUND');
    assert.notEqual((await fetch(link)).status, 200, 'an issued link stops');
    assert.deepEqual((await usage()).user, { files: 0, bytes: 0 }, 'trashed bytes free the quota');
    assert.ok(await isStored(server, projectId, file._id, version), 'the trash keeps the bytes');

    const page = await trashOf(owner);
    assert.equal(page.items.length, 1);
    const [item] = page.items;
    assert.equal(item!._id, file._id);
    assert.equal(item!.filePath, 'docs/report.txt');
    assert.equal(item!.trashedBy, owner.userId);
    const purgeAt = Date.parse(item!.purgeAt as string) - Date.parse(item!.trashedAt as string);
    assert.equal(purgeAt, 30 * 86_400_000, 'purgeAt: the default 30 days after');

    // The path is free: a new upload takes it.
    const again = await api().uploadFile(owner.token, 'docs/report.txt', 'new');
    assert.notEqual(again._id, file._id);
  });

  it('restore at the old path keeps id, ACL, customData; old links stay dead; 409 FILE_EXISTS when taken; at a new path', async () => {
    const owner = await api().signup();
    const reader = await api().signup();
    const file = await api().uploadFile(owner.token, 'keep/a.txt', 'a bytes');
    await api().call('POST', `/api/v1/file/${file._id}/acl/user/${reader.userId}`, { token: owner.token });
    await api().call('PATCH', `/api/v1/file/${file._id}`, {
      token: owner.token,
      body: { customData: { tag: 'x' } },
    });
    const before = (await getFile(owner.token, file._id)).body;
    const oldLink = before.url as string;
    assert.equal((await remove(owner.token, file._id)).status, 204);

    // Someone else may not restore it: it is not in their view.
    const byReader = await restore(reader.token, file._id);
    assert.equal(byReader.status, 404, byReader.text);

    const restored = await restore(owner.token, file._id);
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body._id, file._id);
    assert.equal(restored.body.filePath, 'keep/a.txt');
    assert.deepEqual(restored.body.customData, { tag: 'x' });
    assert.equal(restored.body.__v, before.__v + 1);
    const read = await getFile(reader.token, file._id);
    assert.equal(read.status, 200, 'the ACL came back');
    assert.equal(await (await fetch(read.body.url)).text(), 'a bytes');
    assert.notEqual((await fetch(oldLink)).status, 200, 'a link issued before the trashing stays dead');
    assert.deepEqual((await trashOf(owner)).items, []);

    // Trashed again, its path taken meanwhile: 409, and it stays in the trash; then elsewhere.
    assert.equal((await remove(owner.token, file._id)).status, 204);
    await api().uploadFile(owner.token, 'keep/a.txt', 'newer');
    const taken = await restore(owner.token, file._id);
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.body.code, 'FILE_EXISTS');
    assert.equal((await trashOf(owner)).items.length, 1);
    const moved = await restore(owner.token, file._id, { filePath: 'keep/a (restored).txt' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.filePath, 'keep/a (restored).txt');
    assert.deepEqual(await pathsOf(owner), ['keep/a (restored).txt', 'keep/a.txt']);
  });

  it('restore keeps folder shares and versions (a version row made with SQL)', async () => {
    const owner = await api().signup();
    const reader = await api().signup();
    const { projectId } = server.credentials;
    const file = await api().uploadFile(owner.token, 'shared/v.txt', 'current');
    const share = await api().call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'shared/', user: reader.userId },
    });
    assert.equal(share.status, 200, share.text);
    const { db } = server.services.database;
    await db
      .insertInto('file_versions')
      .values({
        file_id: file._id,
        version_id: 'older-version-id',
        project_id: projectId,
        creator_id: owner.userId,
        blob_file_id: file._id,
        blob_version: 'v-old',
        etag: '"old"',
        size_bytes: 100,
        content_type: 'text/plain',
        content_last_modified: 0,
        created_at: 0,
        created_by: owner.userId,
        noncurrent_at: 0,
      })
      .execute();
    const usage = () => server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    assert.equal((await usage()).user.bytes, 107);
    assert.equal((await remove(owner.token, file._id)).status, 204);
    assert.equal((await usage()).user.bytes, 0, 'the versions leave the quota with the file');
    const [item] = (await trashOf(owner)).items;
    assert.ok(item);

    const restored = await restore(owner.token, file._id);
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await usage()).user.bytes, 107, 'and come back with it');
    const versions = await db
      .selectFrom('file_versions')
      .select('version_id')
      .where('file_id', '=', file._id)
      .execute();
    assert.deepEqual(
      versions.map((row) => row.version_id),
      ['older-version-id'],
    );
    const read = await getFile(reader.token, file._id);
    assert.equal(read.status, 200, 'the folder share reaches it again');
    assert.deepEqual(
      (read.body.folderAcl as { path: string }[]).map((entry) => entry.path),
      ['shared/'],
    );
  });

  it('purge and empty remove the bytes; events file.trashed, file.deleted, file.restored, file.purged', async () => {
    const owner = await api().signup();
    const { projectId } = server.credentials;
    const serviceKey = await server.createServiceKey();
    const files = [];
    for (const name of ['p1', 'p2', 'p3']) files.push(await api().uploadFile(owner.token, `p/${name}`, name));
    const versions = await Promise.all(files.map((file) => blobVersionOf(server, file._id)));
    for (const file of files) assert.equal((await remove(owner.token, file._id)).status, 204);

    const purged = await api().call('DELETE', `/api/v1/trash/${files[0]!._id}`, { token: owner.token });
    assert.equal(purged.status, 204, purged.text);
    assert.equal(await isStored(server, projectId, files[0]!._id, versions[0]!), false);
    assert.equal(await isStored(server, projectId, files[1]!._id, versions[1]!), true);
    const again = await api().call('DELETE', `/api/v1/trash/${files[0]!._id}`, { token: owner.token });
    assert.equal(again.body.code, 'FILE_NOT_FOUND');

    const emptied = await api().call('POST', '/api/v1/trash/empty', { token: owner.token });
    assert.equal(emptied.status, 200, emptied.text);
    assert.deepEqual(emptied.body, { purged: 2 });
    for (const [index, file] of files.entries())
      assert.equal(await isStored(server, projectId, file._id, versions[index]!), false);
    assert.deepEqual((await trashOf(owner)).items, []);

    const audit = await api().call('GET', '/api/v1/audit?pageSize=100', { serviceKey });
    const types = (audit.body.events as { type: string; data: { creator?: string } }[])
      .filter((event) => event.data.creator === owner.userId)
      .map((event) => event.type);
    for (const type of ['file.trashed', 'file.deleted', 'file.purged'])
      assert.equal(types.filter((t) => t === type).length, 3, `${type}: ${types.join(', ')}`);
  });

  it('a trash page is a keyset page, newest first; an admin may name the owner', async () => {
    const owner = await api().signup();
    const admin = await api().signup();
    await server.services.repositories.users.setRole(server.credentials.projectId, admin.userId, 'admin');
    const ids = [];
    for (const name of ['1', '2', '3']) {
      const file = await api().uploadFile(owner.token, `k/${name}`, name);
      await remove(owner.token, file._id);
      ids.push(file._id);
    }
    const first = await trashOf(owner, '?pageSize=2');
    assert.equal(first.items.length, 2);
    assert.ok(first.nextCursor);
    const second = await trashOf(owner, `?pageSize=2&cursor=${first.nextCursor}`);
    assert.equal(second.nextCursor, null);
    const seen = [...first.items, ...second.items].map((item) => item._id);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    const byAdmin = await trashOf(admin, `?owner=${owner.userId}`);
    assert.equal(byAdmin.items.length, 3);
    const notMine = await api().call('GET', `/api/v1/trash?owner=${owner.userId}`, {
      token: (await api().signup()).token,
    });
    assert.equal(notMine.body.code, 'FILE_NOT_FOUND');
    const badCursor = await api().call('GET', '/api/v1/trash?cursor=nonsense', { token: owner.token });
    assert.equal(badCursor.body.code, 'VALIDATION_FAILED');
  });

  it('trashRetentionDays = 0: a delete is final at once, as before', async () => {
    const client = await projectWith(server, 'no-trash', { trashRetentionDays: 0 });
    const owner = await client.signup();
    const file = await client.uploadFile(owner.token, 'gone.txt', 'gone');
    const version = await blobVersionOf(server, file._id);
    const deleted = await client.call('DELETE', `/api/v1/file/${file._id}`, { token: owner.token });
    assert.equal(deleted.status, 204);
    assert.equal(await isStored(server, client.credentials.projectId, file._id, version), false);
    const page = await client.call('GET', '/api/v1/trash', { token: owner.token });
    assert.deepEqual(page.body.items, []);
  });
});
