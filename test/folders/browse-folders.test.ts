import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Entry = { name: string; path: string; fileCount: number; totalBytes: number; updatedAt: string };

/** Issue 36, item 1: GET /api/v1/folders, on the stack the environment names. */
describe('browsing folders', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const browse = (token: string | { serviceKey: string }, query: Record<string, string> = {}) =>
    server.client.call('GET', `/api/v1/folders?${new URLSearchParams(query)}`, {
      ...(typeof token === 'string' ? { token } : token),
    });
  const names = (entries: Entry[]) => entries.map((entry) => entry.name);
  const paths = (files: Array<{ filePath: string }>) => files.map((file) => file.filePath);

  it('answers the root and a nested folder: subfolders with their subtree counts, direct files only', async () => {
    const owner = await server.client.signup();
    for (const [path, content] of [
      ['top.txt', '1'],
      ['photos/a.jpg', '22'],
      ['photos/2026/b.jpg', '333'],
      ['photos/2026/june/c.jpg', '4444'],
      ['docs/d.txt', '55555'],
    ] as const)
      await server.client.uploadFile(owner.token, path, content);
    const root = await browse(owner.token);
    assert.equal(root.status, 200, root.text);
    assert.equal(root.body.owner, owner.userId);
    assert.equal(root.body.path, '');
    assert.equal(root.body.fileCount, 5);
    assert.equal(root.body.totalBytes, 15);
    assert.deepEqual(
      root.body.folders.map(({ updatedAt: _, ...entry }: Entry) => entry),
      [
        { name: 'docs', path: 'docs/', fileCount: 1, totalBytes: 5 },
        { name: 'photos', path: 'photos/', fileCount: 3, totalBytes: 9 },
      ],
    );
    assert.match(root.body.folders[0].updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(paths(root.body.files), ['top.txt']);
    assert.equal(root.body.nextCursor, null);
    // The records are the listing's own.
    const listed = await server.client.call('GET', '/api/v1/file?filePath=top.txt', { token: owner.token });
    assert.deepEqual(root.body.files[0], listed.body.docs[0]);

    // No closing slash: one is added.
    const nested = await browse(owner.token, { path: 'photos/2026' });
    assert.equal(nested.status, 200, nested.text);
    assert.equal(nested.body.path, 'photos/2026/');
    assert.equal(nested.body.fileCount, 2);
    assert.equal(nested.body.totalBytes, 7);
    assert.deepEqual(names(nested.body.folders), ['june']);
    assert.equal(nested.body.folders[0].path, 'photos/2026/june/');
    assert.deepEqual(paths(nested.body.files), ['photos/2026/b.jpg']);
  });

  it('pages direct files with a cursor that files added meanwhile do not shift', async () => {
    const owner = await server.client.signup();
    for (const name of ['b', 'd', 'f', 'h'])
      await server.client.uploadFile(owner.token, `pages/${name}.txt`, name);
    await server.client.uploadFile(owner.token, 'pages/sub/x.txt', 'x');
    const first = await browse(owner.token, { path: 'pages/', pageSize: '2' });
    assert.deepEqual(paths(first.body.files), ['pages/b.txt', 'pages/d.txt']);
    assert.deepEqual(names(first.body.folders), ['sub']);
    assert.equal(typeof first.body.nextCursor, 'string');
    // Files before and after the cursor arrive between the pages.
    await server.client.uploadFile(owner.token, 'pages/a.txt', 'a');
    await server.client.uploadFile(owner.token, 'pages/c.txt', 'c');
    await server.client.uploadFile(owner.token, 'pages/e.txt', 'e');
    const second = await browse(owner.token, {
      path: 'pages/',
      pageSize: '2',
      cursor: first.body.nextCursor,
    });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(paths(second.body.files), ['pages/e.txt', 'pages/f.txt']);
    assert.deepEqual(second.body.folders, [], 'subfolders come with the first page only');
    const third = await browse(owner.token, {
      path: 'pages/',
      pageSize: '2',
      cursor: second.body.nextCursor,
    });
    assert.deepEqual(paths(third.body.files), ['pages/h.txt']);
    assert.equal(third.body.nextCursor, null);
    const forged = await browse(owner.token, { path: 'pages/', cursor: 'not*base64url' });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, 'VALIDATION_FAILED');
  });

  it('a folder whose last file goes is 404 FOLDER_NOT_FOUND; the own empty root still answers', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'gone/soon/only.txt', 'bye');
    assert.equal((await browse(owner.token, { path: 'gone/soon/' })).status, 200);
    const deleted = await server.client.call('DELETE', `/api/v1/file/${file._id}`, { token: owner.token });
    assert.equal(deleted.status, 204);
    for (const path of ['gone/soon/', 'gone/', 'never/']) {
      const missing = await browse(owner.token, { path });
      assert.equal(missing.status, 404, path);
      assert.equal(missing.body.code, 'FOLDER_NOT_FOUND');
    }
    const root = await browse(owner.token);
    assert.equal(root.status, 200);
    assert.deepEqual(
      { fileCount: root.body.fileCount, folders: root.body.folders, files: root.body.files },
      { fileCount: 0, folders: [], files: [] },
    );
  });

  it("another owner's folders: 404 for a plain user, 200 for an admin and a service key", async () => {
    const owner = await server.client.signup();
    const stranger = await server.client.signup();
    await server.client.uploadFile(owner.token, 'private/plan.txt', 'secret');
    for (const path of ['', 'private/', 'absent/']) {
      const refused = await browse(stranger.token, { owner: owner.userId, path });
      assert.equal(refused.status, 404, path);
      assert.equal(refused.body.code, 'FOLDER_NOT_FOUND');
    }
    const serviceKey = await server.createServiceKey();
    const asKey = await browse({ serviceKey }, { owner: owner.userId, path: 'private/' });
    assert.equal(asKey.status, 200, asKey.text);
    assert.deepEqual(paths(asKey.body.files), ['private/plan.txt']);
    const admin = await server.client.signup();
    await server.services.repositories.users.setRole(server.credentials.projectId, admin.userId, 'admin');
    const asAdmin = await browse(admin.token, { owner: owner.userId });
    assert.equal(asAdmin.status, 200, asAdmin.text);
    assert.deepEqual(names(asAdmin.body.folders), ['private']);
    const keyWithoutOwner = await browse({ serviceKey });
    assert.equal(keyWithoutOwner.status, 400);
  });

  it('refuses bad paths, page sizes and unknown parameters with 400', async () => {
    const owner = await server.client.signup();
    for (const query of [
      { path: '/abs/' },
      { path: 'a//b/' },
      { path: '../' },
      { pageSize: '0' },
      { pageSize: '1001' },
      { prefix: 'a' },
    ] as Record<string, string>[]) {
      const refused = await browse(owner.token, query);
      assert.equal(refused.status, 400, JSON.stringify(query));
    }
  });
});
