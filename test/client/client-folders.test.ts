import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError, type FolderEntry } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** The error a call ends with: its status and code, or 'none'. */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'none';
  } catch (error) {
    assert.ok(error instanceof CofferError, String(error));
    return `${error.status} ${error.code}`;
  }
}

const withoutTime = (entries: FolderEntry[]) => entries.map(({ updatedAt: _, ...entry }) => entry);

// client.folders (folder-calls.ts) against a real server, in Node: browse, move, delete (issue 36).
describe('@coffer/client: folders', () => {
  let server: TestServer;
  const newClient = () =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
    });
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('lists a folder: subtree counts and bytes, its subfolders, its direct files a page at a time', async () => {
    const ada = newClient();
    await ada.signup({ email: 'ada@folders.example', password: 'correct horse' });
    for (const [filePath, content] of [
      ['trips/notes.txt', '1'],
      ['trips/rome/a.jpg', '22'],
      ['trips/rome/b.jpg', '333'],
      ['trips/paris/c.jpg', '4444'],
    ])
      await ada.upload(filePath!, content!);

    const root = await ada.folders.list();
    assert.deepEqual([root.path, root.fileCount, root.totalBytes], ['', 4, 10]);
    assert.deepEqual(withoutTime(root.folders), [
      { name: 'trips', path: 'trips/', fileCount: 4, totalBytes: 10 },
    ]);
    const trips = await ada.folders.list('trips/');
    assert.deepEqual(withoutTime(trips.folders), [
      { name: 'paris', path: 'trips/paris/', fileCount: 1, totalBytes: 4 },
      { name: 'rome', path: 'trips/rome/', fileCount: 2, totalBytes: 5 },
    ]);
    assert.deepEqual(
      trips.files.map((file) => file.filePath),
      ['trips/notes.txt'],
    );

    const first = await ada.folders.list('trips/rome/', { pageSize: 1 });
    assert.deepEqual(
      first.files.map((file) => file.filePath),
      ['trips/rome/a.jpg'],
    );
    assert.ok(first.nextCursor);
    const second = await ada.folders.list('trips/rome/', { pageSize: 1, cursor: first.nextCursor });
    assert.deepEqual(
      second.files.map((file) => file.filePath),
      ['trips/rome/b.jpg'],
    );
    assert.equal(second.nextCursor, null);
  });

  it("names another owner's folder with `owner`: the project's admins see it, anyone else gets 404", async () => {
    const eve = newClient();
    const admin = newClient();
    const { userId: eveId } = await eve.signup({ email: 'eve@folders.example', password: 'correct horse' });
    const { userId: adminId } = await admin.signup({
      email: 'admin@folders.example',
      password: 'correct horse',
    });
    await eve.upload('private/diary.txt', 'dear diary');
    assert.equal(await failureOf(admin.folders.list('private/', { owner: eveId })), '404 FOLDER_NOT_FOUND');
    assert.equal(await failureOf(admin.folders.delete('private/', { owner: eveId })), '404 FOLDER_NOT_FOUND');
    await server.services.repositories.users.setRole(server.credentials.projectId, adminId, 'admin');
    const page = await admin.folders.list('private/', { owner: eveId });
    assert.deepEqual([page.owner, page.files.map((file) => file.filePath)], [eveId, ['private/diary.txt']]);
    assert.deepEqual(await admin.folders.move('private/', 'kept/', { owner: eveId }), { moved: 1 });
    assert.deepEqual(
      (await eve.folders.list('kept/')).files.map((file) => file.filePath),
      ['kept/diary.txt'],
    );
  });

  it('moves a folder keeping ids and content; a taken target moves nothing (409); deletes a folder', async () => {
    const bob = newClient();
    await bob.signup({ email: 'bob@folders.example', password: 'correct horse' });
    const one = await bob.upload('album/one.txt', 'one');
    const two = await bob.upload('album/deep/two.txt', 'two!');
    await bob.upload('archive/album/one.txt', 'in the way');

    assert.equal(await failureOf(bob.folders.move('album/', 'archive/album/')), '409 FOLDER_CONFLICT');
    assert.equal((await bob.get(one._id)).filePath, 'album/one.txt', 'nothing moved');
    assert.equal(await failureOf(bob.folders.move('album/', 'album/inner/')), '400 VALIDATION_FAILED');

    assert.deepEqual(await bob.folders.move('album/', 'renamed/'), { moved: 2 });
    assert.equal((await bob.get(one._id)).filePath, 'renamed/one.txt');
    assert.equal(await (await bob.download(two._id)).text(), 'two!');
    assert.equal(await failureOf(bob.folders.list('album/')), '404 FOLDER_NOT_FOUND');

    assert.deepEqual(await bob.folders.delete('renamed/'), { deleted: 2, bytes: 7 });
    assert.equal(await failureOf(bob.get(two._id)), '404 FILE_NOT_FOUND');
    assert.equal(await failureOf(bob.folders.delete('renamed/')), '404 FOLDER_NOT_FOUND');
    const root = await bob.folders.list();
    assert.deepEqual([root.fileCount, root.folders.map((folder) => folder.path)], [1, ['archive/']]);
  });

  it('shares a folder by id, email or role, lists its shares, unshares; shared() pages what others shared', async () => {
    const cleo = newClient();
    const dan = newClient();
    await cleo.signup({ email: 'cleo@folders.example', password: 'correct horse' });
    const { userId: danId } = await dan.signup({ email: 'dan@folders.example', password: 'correct horse' });
    const report = await cleo.upload('work/q1/report.txt', 'numbers');
    const memo = await cleo.upload('memo.txt', 'memo');
    assert.equal(await failureOf(dan.get(report._id)), '403 ACCESS_DENIED');

    const shared = await cleo.folders.share('work/', { userId: danId });
    assert.deepEqual(
      [
        shared.owner,
        shared.path,
        shared.shares.map(({ scope, identifier, path }) => [scope, identifier, path]),
      ],
      [cleo.session?.userId, 'work/', [['user', danId, 'work/']]],
    );
    assert.equal((await dan.get(report._id)).filePath, 'work/q1/report.txt', 'a share reaches the subtree');
    await cleo.folders.share('work/q1', { role: 'auditors' });
    await cleo.folders.share('work/q1/', { email: 'DAN@folders.example' });
    const reaching = await cleo.folders.shares('work/q1/');
    assert.deepEqual(
      reaching.shares.map(({ scope, identifier, path }) => `${path} ${scope} ${identifier}`),
      [`work/ user ${danId}`, 'work/q1/ role auditors', `work/q1/ user ${danId}`],
    );
    assert.equal(
      await failureOf(dan.folders.shares('work/', { owner: cleo.session?.userId })),
      '404 FOLDER_NOT_FOUND',
    );
    await cleo.share(memo._id, { userId: danId });

    const first = await dan.shared({ pageSize: 2 });
    const second = await dan.shared({ pageSize: 2, cursor: first.nextCursor ?? undefined });
    assert.equal(second.nextCursor, null);
    const items = [...first.items, ...second.items].map((item) =>
      item.kind === 'file' ? `file ${item.file.filePath}` : `folder ${item.path}`,
    );
    assert.deepEqual(items.sort(), ['file memo.txt', 'folder work/', 'folder work/q1/']);
    assert.deepEqual((await cleo.shared()).items, [], "a caller's own files are never shared with them");

    const after = await cleo.folders.unshare('work/', { userId: danId });
    assert.equal(after.shares.length, 0);
    await cleo.folders.unshare('work/q1/', { email: 'dan@folders.example' });
    assert.equal(await failureOf(dan.get(report._id)), '403 ACCESS_DENIED');
    assert.deepEqual(
      (await dan.shared()).items.map((item) => item.kind),
      ['file'],
    );
  });
});
