import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 36, items 2, 3 and 7: moving and deleting a whole folder. */
describe('folder move and delete', () => {
  let server: TestServer;
  let serviceKey: string;
  before(async () => {
    server = await startTestServer();
    serviceKey = await server.createServiceKey();
    // Deletes here are final, as before the trash (issue 38): test/trash/ covers the trash.
    const { projectId } = server.credentials;
    const project = await server.services.repositories.projects.findById(projectId);
    const settings: ProjectSettings = { ...project!.settings, trashRetentionDays: 0 };
    await server.services.repositories.projects.updateSettings(projectId, settings);
  });
  after(() => server?.stop());

  const call = (path: string, token: string, body?: unknown) =>
    server.client.call('POST', path, { token, body });
  const move = (token: string, body: unknown) => call('/api/v1/folders/move', token, body);
  const remove = (token: string, body: unknown) => call('/api/v1/folders/delete', token, body);
  const getFile = (token: string, id: string) => server.client.call('GET', `/api/v1/file/${id}`, { token });
  const pathsOf = async (account: Account) => {
    const listed = await server.client.call('GET', '/api/v1/file?pageSize=100', { token: account.token });
    return (listed.body.docs as { filePath: string }[]).map((doc) => doc.filePath).sort();
  };
  const upload = (account: Account, filePath: string, content = filePath) =>
    server.client.uploadFile(account.token, filePath, content);
  /** The events of this test's owner, oldest first (the audit log, read with a service key). */
  const eventsOf = async (owner: Account, type: string) => {
    const answer = await server.client.call('GET', `/api/v1/audit?type=${type}&pageSize=100`, { serviceKey });
    assert.equal(answer.status, 200, answer.text);
    return (answer.body.events as { data: Record<string, unknown> }[])
      .filter((event) => event.data.creator === owner.userId || event.data.owner === owner.userId)
      .reverse();
  };

  it('move: every file under `from` is at the same place under `to`, ids, ACLs, customData and links kept', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const photo = await upload(owner, 'trips/😀 rome/day1/photo.jpg', 'photo bytes');
    const note = await upload(owner, 'trips/😀 rome/note.txt', 'note bytes');
    const outside = await upload(owner, 'trips/😀 romer/other.txt');
    await call(`/api/v1/file/${photo._id}/acl/user/${reader.userId}`, owner.token);
    await server.client.call('PATCH', `/api/v1/file/${note._id}`, {
      token: owner.token,
      body: { customData: { album: 'rome' } },
    });
    const beforeMove = (await getFile(reader.token, photo._id)).body;
    const link = beforeMove.url as string;

    const moved = await move(owner.token, { from: 'trips/😀 rome/', to: 'archive/2024/rome/' });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body, { moved: 2 });
    assert.deepEqual(await pathsOf(owner), [
      'archive/2024/rome/day1/photo.jpg',
      'archive/2024/rome/note.txt',
      'trips/😀 romer/other.txt',
    ]);
    const read = await getFile(reader.token, photo._id);
    assert.equal(read.status, 200, 'the ACL moved with the file');
    assert.equal(read.body.filePath, 'archive/2024/rome/day1/photo.jpg');
    assert.equal(read.body.__v, beforeMove.__v + 1);
    assert.equal((await getFile(owner.token, note._id)).body.customData.album, 'rome');
    assert.equal((await getFile(owner.token, outside._id)).body.filePath, 'trips/😀 romer/other.txt');
    assert.equal(
      await (await fetch(link)).text(),
      'photo bytes',
      'a link issued before the move still works',
    );

    const updates = (await eventsOf(owner, 'file.updated')).filter((event) => event.data.change === 'move');
    assert.deepEqual(
      updates.map((event) => [event.data.fileId, event.data.filePath, event.data.previousFilePath]).sort(),
      [
        [photo._id, 'archive/2024/rome/day1/photo.jpg', 'trips/😀 rome/day1/photo.jpg'],
        [note._id, 'archive/2024/rome/note.txt', 'trips/😀 rome/note.txt'],
      ].sort(),
    );
    const [folderMoved, ...more] = await eventsOf(owner, 'folder.moved');
    assert.equal(more.length, 0);
    assert.deepEqual(folderMoved?.data, {
      owner: owner.userId,
      from: 'trips/😀 rome/',
      to: 'archive/2024/rome/',
      fileCount: 2,
    });
  });

  it('move to an ancestor: files may take paths the moving files leave', async () => {
    const owner = await server.client.signup();
    // The deeper file first: a statement that rewrote the paths row by row in insertion order
    // would give it a/b/x.txt while that file still holds it.
    await upload(owner, 'a/b/b/x.txt');
    await upload(owner, 'a/b/x.txt');
    await upload(owner, 'a/y.txt');
    const moved = await move(owner.token, { from: 'a/b/', to: 'a/' });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await pathsOf(owner), ['a/b/x.txt', 'a/x.txt', 'a/y.txt']);
  });

  it('move: a taken target path is 409 FOLDER_CONFLICT naming the first clash; nothing moves', async () => {
    const owner = await server.client.signup();
    await upload(owner, 'src/a.txt');
    await upload(owner, 'src/b.txt');
    await upload(owner, 'src/c.txt');
    await upload(owner, 'dst/c.txt');
    await upload(owner, 'dst/b.txt');
    // An unverified record also holds its path.
    await call('/api/v1/file', owner.token, { filePath: 'dst/a.txt' });
    const before = await pathsOf(owner);
    const refused = await move(owner.token, { from: 'src/', to: 'dst/' });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'FOLDER_CONFLICT');
    assert.match(refused.body.message, /"dst\/a\.txt"/);
    assert.deepEqual(await pathsOf(owner), before);
    assert.deepEqual(await eventsOf(owner, 'folder.moved'), []);
  });

  it('move: `to` equal to or inside `from` is 400 VALIDATION_FAILED; paths follow the filePath rules and end in /', async () => {
    const owner = await server.client.signup();
    await upload(owner, 'p/q/r.txt');
    for (const [body, code] of [
      [{ from: 'p/', to: 'p/' }, 'VALIDATION_FAILED'],
      [{ from: 'p/', to: 'p/q/' }, 'VALIDATION_FAILED'],
      [{ from: 'p', to: 'z/' }, 'INVALID_FILE_PATH'],
      [{ from: 'p/', to: 'z' }, 'INVALID_FILE_PATH'],
      [{ from: 'p/', to: '../z/' }, 'INVALID_FILE_PATH'],
      [{ from: 'p/', to: '/' }, 'INVALID_FILE_PATH'],
      [{ from: 'p//', to: 'z/' }, 'INVALID_FILE_PATH'],
      [{ from: 'p/' }, 'VALIDATION_FAILED'],
    ] as const) {
      const answer = await move(owner.token, body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.equal(answer.body.code, code, JSON.stringify(body));
    }
    assert.deepEqual(await pathsOf(owner), ['p/q/r.txt']);
  });

  it('delete: every file under the folder, quotas freed, links refused, bytes gone → {deleted, bytes}', async () => {
    const owner = await server.client.signup();
    const { projectId } = server.credentials;
    const usage = () => server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    const kept = await upload(owner, 'album-2/keep.txt', '1234');
    const first = await upload(owner, 'album/one.txt', '12345');
    await upload(owner, 'album/deep/two.txt', '1234567');
    await call('/api/v1/file', owner.token, { filePath: 'album/pending.txt', contentLength: 11 });
    const link = (await getFile(owner.token, first._id)).body.url as string;
    const stored = await server.services.repositories.files.findById(first._id);
    const storedBytes = () => server.services.blobs.head(`${projectId}/${first._id}`, stored!.blobVersion!);
    assert.ok(await storedBytes());
    assert.deepEqual((await usage()).user, { files: 4, bytes: 27 });

    const deleted = await remove(owner.token, { path: 'album/' });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { deleted: 3, bytes: 23 });
    assert.deepEqual(await pathsOf(owner), ['album-2/keep.txt']);
    assert.deepEqual((await usage()).user, { files: 1, bytes: 4 });
    assert.notEqual((await fetch(link)).status, 200, 'a link of a deleted file is refused');
    assert.equal((await getFile(owner.token, first._id)).body.code, 'FILE_NOT_FOUND');
    assert.equal((await getFile(owner.token, kept._id)).status, 200);
    assert.equal(await storedBytes(), undefined, 'the bytes were removed after the commit');

    const fileEvents = await eventsOf(owner, 'file.deleted');
    assert.equal(fileEvents.length, 3);
    const [folderDeleted] = await eventsOf(owner, 'folder.deleted');
    assert.deepEqual(folderDeleted?.data, { owner: owner.userId, path: 'album/', fileCount: 3, bytes: 23 });
  });

  it('a folder with no file is 404 FOLDER_NOT_FOUND; so is another owner’s without the admin role', async () => {
    const owner = await server.client.signup();
    const other = await server.client.signup();
    await upload(owner, 'mine/a.txt');
    for (const answer of [
      await move(owner.token, { from: 'nothing/', to: 'else/' }),
      await remove(owner.token, { path: 'nothing/' }),
      await remove(owner.token, { path: 'min/' }),
      await move(other.token, { owner: owner.userId, from: 'mine/', to: 'taken/' }),
      await remove(other.token, { owner: owner.userId, path: 'mine/' }),
      // Without `owner`, the caller's own folder: the other has none there.
      await remove(other.token, { path: 'mine/' }),
    ]) {
      assert.equal(answer.status, 404, answer.text);
      assert.equal(answer.body.code, 'FOLDER_NOT_FOUND');
    }
    assert.deepEqual(await pathsOf(owner), ['mine/a.txt']);
  });

  it("an admin or a service key may move and delete another owner's folder; a service key must name the owner", async () => {
    const owner = await server.client.signup();
    const admin = await server.client.signup();
    await server.services.repositories.users.setRole(server.credentials.projectId, admin.userId, 'admin');
    await upload(owner, 'x/a.txt');
    await upload(owner, 'y/b.txt');
    const byAdmin = await move(admin.token, { owner: owner.userId, from: 'x/', to: 'z/' });
    assert.equal(byAdmin.status, 200, byAdmin.text);
    const noOwner = await server.client.call('POST', '/api/v1/folders/delete', {
      serviceKey,
      body: { path: 'y/' },
    });
    assert.equal(noOwner.body.code, 'VALIDATION_FAILED');
    const byKey = await server.client.call('POST', '/api/v1/folders/delete', {
      serviceKey,
      body: { owner: owner.userId, path: 'y/' },
    });
    assert.equal(byKey.status, 200, byKey.text);
    assert.deepEqual(await pathsOf(owner), ['z/a.txt']);
  });

  it('more files than maxFolderOperationFiles: 413 FOLDER_TOO_LARGE with the count, nothing changed', async () => {
    const client = await server.createProject('folder-limits');
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    const settings: ProjectSettings = { ...current!.settings, maxFolderOperationFiles: 2 };
    await server.services.repositories.projects.updateSettings(projectId, settings);
    const owner = await client.signup();
    for (const name of ['a', 'b', 'c']) await client.uploadFile(owner.token, `big/${name}.txt`, name);
    await client.uploadFile(owner.token, 'small/a.txt', 'a');
    await client.uploadFile(owner.token, 'small/b.txt', 'b');
    for (const answer of [
      await client.call('POST', '/api/v1/folders/move', {
        token: owner.token,
        body: { from: 'big/', to: 'moved/' },
      }),
      await client.call('POST', '/api/v1/folders/delete', { token: owner.token, body: { path: 'big/' } }),
    ]) {
      assert.equal(answer.status, 413, answer.text);
      assert.equal(answer.body.code, 'FOLDER_TOO_LARGE');
      assert.match(answer.body.message, /holds 3 files/);
    }
    const ok = await client.call('POST', '/api/v1/folders/delete', {
      token: owner.token,
      body: { path: 'small/' },
    });
    assert.deepEqual(ok.body, { deleted: 2, bytes: 2 }, 'two is within the limit');
    const listed = await client.call('GET', '/api/v1/file', { token: owner.token });
    assert.equal(listed.body.total, 3);
  });
});
