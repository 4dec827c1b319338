import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * Issue 36, "Cost is a page": a folder page's records are the ones a point read keeps (one
 * record a file per process, checked by its row stamp), and never one older than the file.
 */
describe('a folder page’s records', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const browse = (token: string, path: string) =>
    server.client.call('GET', `/api/v1/folders?${new URLSearchParams({ path })}`, { token });

  it('are the records a point read keeps: a page builds no second record of a file', async () => {
    const owner = await server.client.signup();
    const a = await server.client.uploadFile(owner.token, 'kept/a.txt', 'a');
    const b = await server.client.uploadFile(owner.token, 'kept/b.txt', 'b');
    const { projectId } = server.credentials;
    const pageOf = () =>
      server.services.repositories.folders.findPage({
        ...{ projectId, ownerId: owner.userId, path: 'kept/' },
        ...{ fileLimit: 10, subfolderLimit: 0 },
      });
    const pointReads = [
      await server.services.repositories.files.findById(a._id),
      await server.services.repositories.files.findById(b._id),
    ];
    const first = await pageOf();
    assert.equal(first?.files[0], pointReads[0], 'the page answers the point reads’ kept records');
    assert.equal(first?.files[1], pointReads[1]);
    await server.client.call('PATCH', `/api/v1/file/${b._id}`, {
      token: owner.token,
      body: { customData: {} },
    });
    const changed = await pageOf();
    assert.notEqual(changed?.files[1], pointReads[1], 'a file changed since: the page is read again');
    assert.deepEqual(changed?.files[1]?.customData, {});
    const again = await pageOf();
    assert.equal(again?.files[1], changed?.files[1], 'and kept its records for the next page');
    assert.ok(Object.isFrozen(again?.files[1]), 'kept records are shared: frozen');
  });

  it('answer each file as it is now after a share, a customData change, a move and a delete', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const shared = await server.client.uploadFile(owner.token, 'live/shared.txt', 's');
    const patched = await server.client.uploadFile(owner.token, 'live/patched.txt', 'p');
    const moved = await server.client.uploadFile(owner.token, 'live/moved.txt', 'm');
    const deleted = await server.client.uploadFile(owner.token, 'live/deleted.txt', 'd');
    const before = await browse(owner.token, 'live/');
    assert.equal(before.status, 200, before.text);
    assert.equal(before.body.files.length, 4);

    const token = owner.token;
    for (const [method, path, body] of [
      ['POST', `/api/v1/file/${shared._id}/acl/user/${reader.userId}`, undefined],
      ['PATCH', `/api/v1/file/${patched._id}`, { customData: { w: 2 } }],
      ['POST', `/api/v1/file/${moved._id}/move`, { filePath: 'elsewhere/m.txt' }],
      ['DELETE', `/api/v1/file/${deleted._id}`, undefined],
    ] as const) {
      const change = await server.client.call(method, path, { token, ...(body && { body }) });
      assert.ok(change.status === 200 || change.status === 204, `${method} ${path}: ${change.text}`);
    }

    const now = await browse(owner.token, 'live/');
    assert.equal(now.status, 200, now.text);
    assert.deepEqual(
      now.body.files.map((file: { filePath: string }) => file.filePath),
      ['live/patched.txt', 'live/shared.txt'],
    );
    for (const file of now.body.files) {
      const pointRead = await server.client.call('GET', `/api/v1/file/${file._id}`, { token });
      const { url: _, expiresAt: __, ...record } = pointRead.body;
      assert.deepEqual(file, record, `${file.filePath}: the page's record is the point read's`);
    }
    assert.deepEqual(now.body.files[0].customData, { w: 2 });
    assert.ok(
      now.body.files[1].acl.some((entry: { identifier: string }) => entry.identifier === reader.userId),
    );
  });

  it('answer the same JSON warm as cold, whatever the names hold (quotes, "files":[], non-ASCII)', async () => {
    const owner = await server.client.signup();
    const folder = 'odd "files":[] é/';
    const names = ['a "files":[].txt', 'b ü 🗂.txt', 'c.txt'];
    const ids = [];
    for (const name of names)
      ids.push((await server.client.uploadFile(owner.token, folder + name, name))._id);
    await server.client.uploadFile(owner.token, `${folder}sub "x"/d.txt`, 'd');
    const patched = await server.client.call('PATCH', `/api/v1/file/${ids[2]}`, {
      token: owner.token,
      body: { customData: { note: '"files":[]', ü: ['é'] } },
    });
    assert.equal(patched.status, 200, patched.text);
    const cold = await browse(owner.token, folder);
    const warm = await browse(owner.token, folder);
    assert.equal(cold.status, 200, cold.text);
    assert.equal(warm.text, cold.text, 'a page of kept records answers the same bytes');
    assert.match(String(warm.headers.get('content-type')), /^application\/json; charset=utf-8/);
    assert.deepEqual(
      warm.body.files.map((file: { filePath: string }) => file.filePath),
      names.map((name) => folder + name),
    );
    assert.deepEqual(
      warm.body.folders.map((entry: { name: string }) => entry.name),
      ['sub "x"'],
    );
    for (const file of warm.body.files) {
      const pointRead = await server.client.call('GET', `/api/v1/file/${file._id}`, { token: owner.token });
      const { url: _, expiresAt: __, ...record } = pointRead.body;
      assert.deepEqual(file, record, `${file.filePath}: the page's record is the point read's`);
    }
    const empty = await browse(owner.token, `${folder}sub "x"/`);
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body.files.length, 1);
  });
});
