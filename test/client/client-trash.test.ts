import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError, type TrashItem } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** The error a call ends with (status and code), or 'none'. */
async function errorOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'none';
  } catch (error) {
    assert.ok(error instanceof CofferError, String(error));
    return `${error.status} ${error.code}`;
  }
}

// trash, restore, purge and emptyTrash against a real server (issue 38, item 3): the project
// keeps a trash by default (trashRetentionDays 30), so delete() puts a file there.
describe('@coffer/client: the trash', () => {
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

  /** Every item of the caller's trash (an admin: owner's), a page of `pageSize` at a time. */
  async function wholeTrash(client: CofferClient, options: { pageSize: number; owner?: string }) {
    const items: TrashItem[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.trash({ ...options, cursor });
      assert.ok(page.items.length <= options.pageSize);
      items.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return items;
  }

  it('lists deleted files page by page, restores one at its path and one elsewhere, purges, empties', async () => {
    const ada = newClient();
    const session = await ada.signup({ email: 'ada@trash.example', password: 'correct horse' });
    const [first, second, third] = [
      await ada.upload('notes/first.txt', 'one'),
      await ada.upload('notes/second.txt', 'two'),
      await ada.upload('notes/third.txt', 'three'),
    ];
    for (const file of [first!, second!, third!]) await ada.delete(file._id);
    assert.equal(await errorOf(ada.get(first!._id)), '404 FILE_NOT_FOUND');

    const listed = await ada.trash();
    assert.deepEqual(
      listed.items.map((item) => item._id).sort(),
      [first!._id, second!._id, third!._id].sort(),
    );
    assert.equal(listed.nextCursor, null);
    const item = listed.items.find((entry) => entry._id === first!._id)!;
    assert.equal(item.filePath, 'notes/first.txt');
    assert.equal(item.trashedBy, session.userId);
    assert.ok(Date.parse(item.purgeAt) > Date.parse(item.trashedAt), 'purged later, by the retention');
    const paged = await wholeTrash(ada, { pageSize: 2 });
    assert.deepEqual(
      paged.map((entry) => entry._id),
      listed.items.map((entry) => entry._id),
      'the pages are the list',
    );

    const restored = await ada.restore(first!._id);
    assert.deepEqual([restored._id, restored.filePath], [first!._id, 'notes/first.txt']);
    assert.equal(await (await ada.download(first!._id)).text(), 'one');
    const moved = await ada.restore(second!._id, { filePath: 'notes/again/second.txt' });
    assert.equal(moved.filePath, 'notes/again/second.txt');
    assert.equal(await (await ada.download(second!._id)).text(), 'two');

    await ada.purge(third!._id);
    assert.deepEqual((await ada.trash()).items, []);
    assert.equal(await errorOf(ada.restore(third!._id)), '404 FILE_NOT_FOUND');

    await ada.deleteMany([first!._id, second!._id]);
    assert.equal(await ada.emptyTrash(), 2);
    assert.deepEqual((await ada.trash()).items, []);
    assert.equal(await errorOf(ada.get(second!._id)), '404 FILE_NOT_FOUND');
  });

  it("an admin lists and empties another user's trash (owner); the user may not name another", async () => {
    const bea = newClient();
    const beaSession = await bea.signup({ email: 'bea@trash.example', password: 'correct horse' });
    const admin = newClient();
    const adminSession = await admin.signup({ email: 'adam@trash.example', password: 'correct horse' });
    await server.services.repositories.users.setRole(
      server.credentials.projectId,
      adminSession.userId,
      'admin',
    );
    const file = await bea.upload('bea.txt', 'bea');
    await bea.delete(file._id);

    const owner = beaSession.userId;
    assert.deepEqual(
      (await admin.trash({ owner })).items.map((item) => item._id),
      [file._id],
    );
    assert.deepEqual((await admin.trash()).items, [], "the admin's own trash is empty");
    assert.equal(await errorOf(bea.trash({ owner: adminSession.userId })), '404 FILE_NOT_FOUND');
    assert.equal(await errorOf(bea.emptyTrash({ owner: adminSession.userId })), '404 FILE_NOT_FOUND');
    assert.equal(await admin.emptyTrash({ owner }), 1);
    assert.deepEqual((await bea.trash()).items, []);
  });

  it('rejects with a CofferError and its code: an unknown id, a bad page, a taken path', async () => {
    const cleo = newClient();
    await cleo.signup({ email: 'cleo@trash.example', password: 'correct horse' });
    assert.equal(await errorOf(cleo.restore('no-such-file')), '404 FILE_NOT_FOUND');
    assert.equal(await errorOf(cleo.purge('no-such-file')), '404 FILE_NOT_FOUND');
    assert.equal(await errorOf(cleo.trash({ cursor: 'not-a-cursor' })), '400 VALIDATION_FAILED');
    assert.equal(await errorOf(cleo.trash({ pageSize: 101 })), '400 VALIDATION_FAILED');

    const file = await cleo.upload('kept.txt', 'kept');
    await cleo.delete(file._id);
    await cleo.upload('kept.txt', 'a new file at the freed path');
    assert.equal(await errorOf(cleo.restore(file._id)), '409 FILE_EXISTS');
  });
});
