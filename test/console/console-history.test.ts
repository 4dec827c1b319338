import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleAnswer, type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// Issue 38 in the console: a file's versions and hold, and the project's trash, through the
// console API as an operator, checked through the public API of the files' owners.
describe('console: versions, trash and holds', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let project: string;
  let alice: { token: string; userId: string; email: string };
  let bob: { token: string; userId: string; email: string };

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    project = `/projects/${coffer.credentials.projectId}`;
    alice = await coffer.client.signup('alice@example.com');
    bob = await coffer.client.signup('bob@example.com');
  });
  after(() => coffer.stop());

  const expectCode = (answer: ConsoleAnswer, status: number, code?: string) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    if (code) assert.equal(answer.body.code, code);
  };
  /** New content for the file through the public API's three steps (request, PUT, verify). */
  const replace = async (token: string, fileId: string, content: string) => {
    const requested = await coffer.client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token,
      body: {},
    });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content,
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200);
    const verified = await coffer.client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
  };
  const contentOf = async (fileId: string) => (await call.raw(`${project}/files/${fileId}/content`)).text();
  const deleteAs = async (token: string, fileId: string) =>
    assert.equal((await coffer.client.call('DELETE', `/api/v1/file/${fileId}`, { token })).status, 204);

  it('lists a file’s versions, restores an earlier one and deletes another', async () => {
    const fileId = (await coffer.client.uploadFile(alice.token, 'notes/plan.txt', 'first draft'))._id;
    await replace(alice.token, fileId, 'second draft');
    await replace(alice.token, fileId, 'third draft');
    const listed = await call('GET', `${project}/files/${fileId}/versions`);
    expectCode(listed, 200);
    const versions = listed.body.versions as Array<{ versionId: string; current: boolean; size: number }>;
    assert.deepEqual(
      versions.map((version) => [version.current, version.size]),
      [
        [true, 'third draft'.length],
        [false, 'second draft'.length],
        [false, 'first draft'.length],
      ],
    );
    assert.equal(versions[2]!.versionId, fileId, "the first version's id is the file's");
    assert.equal(listed.body.people[alice.userId], 'alice@example.com');

    const restored = await call('POST', `${project}/files/${fileId}/versions/${fileId}/restore`);
    expectCode(restored, 200);
    assert.equal(restored.body.file._id, fileId);
    assert.equal(await contentOf(fileId), 'first draft');
    // The owner reads the restored bytes too, under the same id.
    const record = await coffer.client.call('GET', `/api/v1/file/${fileId}`, { token: alice.token });
    assert.equal(await (await fetch(record.body.url)).text(), 'first draft');
    const after = (await call('GET', `${project}/files/${fileId}/versions`)).body.versions;
    assert.equal(after.length, 4);
    assert.equal(after[0].current, true);
    assert.match(after[0].createdBy, /^operator:/, 'the operator made the restored version');

    const second = versions[1]!.versionId;
    expectCode(await call('DELETE', `${project}/files/${fileId}/versions/${second}`), 204);
    const left = (await call('GET', `${project}/files/${fileId}/versions`)).body.versions;
    assert.ok(!left.some((version: { versionId: string }) => version.versionId === second));
    expectCode(
      await call('DELETE', `${project}/files/${fileId}/versions/${second}`),
      404,
      'VERSION_NOT_FOUND',
    );
    expectCode(
      await call('POST', `${project}/files/${fileId}/versions/nope/restore`),
      404,
      'VERSION_NOT_FOUND',
    );
    expectCode(
      await call('DELETE', `${project}/files/${fileId}/versions/${left[0].versionId}`),
      400,
      'VALIDATION_FAILED',
    );
    expectCode(await call('GET', `/projects/no-such-project/files/${fileId}/versions`), 404);
  });

  it('holds a file with a reason, which then refuses a version restore and a delete, and releases it', async () => {
    const fileId = (await coffer.client.uploadFile(alice.token, 'legal/contract.txt', 'signed'))._id;
    await replace(alice.token, fileId, 'amended');
    expectCode(await call('POST', `${project}/files/${fileId}/hold`, { reason: '' }), 400);
    const held = await call('POST', `${project}/files/${fileId}/hold`, { reason: 'case 42' });
    expectCode(held, 200);
    assert.equal(held.body.file.hold.reason, 'case 42');
    assert.match(held.body.file.hold.heldBy, /^operator:/);
    expectCode(
      await call('POST', `${project}/files/${fileId}/versions/${fileId}/restore`),
      409,
      'FILE_ON_HOLD',
    );
    expectCode(await call('DELETE', `${project}/files/${fileId}`), 409, 'FILE_ON_HOLD');
    const ownerDelete = await coffer.client.call('DELETE', `/api/v1/file/${fileId}`, { token: alice.token });
    assert.equal(ownerDelete.status, 409);
    assert.equal(await contentOf(fileId), 'amended');

    const released = await call('DELETE', `${project}/files/${fileId}/hold`);
    expectCode(released, 200);
    assert.equal(released.body.file.hold, undefined);
    expectCode(await call('POST', `${project}/files/${fileId}/versions/${fileId}/restore`), 200);
    assert.equal(await contentOf(fileId), 'signed');
  });

  it('lists every owner’s trash newest first a page at a time, filters by owner, restores, purges and empties', async () => {
    const a1 = (await coffer.client.uploadFile(alice.token, 'trash/one.txt', 'one'))._id;
    const b1 = (await coffer.client.uploadFile(bob.token, 'trash/two.txt', 'two'))._id;
    const a2 = (await coffer.client.uploadFile(alice.token, 'trash/three.txt', 'three'))._id;
    const a3 = (await coffer.client.uploadFile(alice.token, 'trash/four.txt', 'four'))._id;
    for (const [token, id] of [
      [alice.token, a1],
      [bob.token, b1],
      [alice.token, a2],
      [alice.token, a3],
    ] as const)
      await deleteAs(token, id);

    const seen: Array<{ _id: string; trashedAt: string }> = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = await call('GET', `${project}/trash?limit=3${query}`);
      expectCode(page, 200);
      assert.ok(page.body.items.length <= 3);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    // Every owner's (no earlier test trashed a file), each once, most recently trashed first;
    // files trashed in the same millisecond come in id order (descending), as the keyset reads.
    assert.deepEqual(seen.map((item) => item._id).sort(), [a1, a2, a3, b1].sort());
    const newestFirst = [...seen].sort(
      (x, y) => Date.parse(y.trashedAt) - Date.parse(x.trashedAt) || (x._id < y._id ? 1 : -1),
    );
    assert.deepEqual(seen, newestFirst);
    const first = (await call('GET', `${project}/trash?limit=1`)).body.items[0];
    assert.equal(first._id, seen[0]!._id);
    const four = seen.find((item) => item._id === a3) as unknown as Record<string, unknown>;
    assert.equal(four.filePath, 'trash/four.txt');
    assert.deepEqual(four.people, { [alice.userId]: 'alice@example.com' });
    assert.equal(four.trashedBy, alice.userId);
    assert.equal(four.heldBytes, 'four'.length);
    assert.ok(Date.parse(first.purgeAt) > Date.parse(first.trashedAt), 'purged after 30 days');
    const bobs = await call('GET', `${project}/trash?owner=Bob@Example.com`);
    assert.deepEqual(
      bobs.body.items.map((item: { _id: string }) => item._id),
      [b1],
    );
    expectCode(await call('GET', `${project}/trash?owner=nobody@example.com`), 404, 'USER_NOT_FOUND');
    expectCode(await call('GET', `${project}/trash?cursor=bogus`), 400, 'VALIDATION_FAILED');

    // Restored at its old path, then one at a new path, and one refused at a taken path.
    const back = await call('POST', `${project}/trash/${a1}/restore`);
    expectCode(back, 200);
    assert.equal(back.body.file.filePath, 'trash/one.txt');
    assert.equal(await contentOf(a1), 'one');
    const owned = await coffer.client.call('GET', `/api/v1/file/${a1}`, { token: alice.token });
    assert.equal(owned.status, 200);
    expectCode(
      await call('POST', `${project}/trash/${a2}/restore`, { filePath: 'trash/one.txt' }),
      409,
      'FILE_EXISTS',
    );
    const moved = await call('POST', `${project}/trash/${a2}/restore`, { filePath: 'restored/three.txt' });
    expectCode(moved, 200);
    assert.equal(moved.body.file.filePath, 'restored/three.txt');
    expectCode(await call('POST', `${project}/trash/${a2}/restore`), 404, 'FILE_NOT_FOUND');

    // Purged: gone from the trash for good.
    expectCode(await call('DELETE', `${project}/trash/${b1}`), 204);
    expectCode(await call('POST', `${project}/trash/${b1}/restore`), 404, 'FILE_NOT_FOUND');
    const bobsTrash = await coffer.client.call('GET', '/api/v1/trash', { token: bob.token });
    assert.deepEqual(bobsTrash.body.items, []);

    // Emptied: one owner's whole trash, named by email.
    const a4 = (await coffer.client.uploadFile(alice.token, 'trash/five.txt', 'five'))._id;
    await deleteAs(alice.token, a4);
    expectCode(await call('POST', `${project}/trash/empty`, {}), 400);
    const emptied = await call('POST', `${project}/trash/empty`, { owner: 'alice@example.com' });
    expectCode(emptied, 200);
    assert.equal(emptied.body.purged, 2);
    assert.deepEqual((await call('GET', `${project}/trash`)).body.items, []);
  });

  it('refuses every route of versions, trash and holds without a session', async () => {
    const api = `${coffer.baseUrl}/console/api${project}`;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/files/x/versions'],
      ['POST', '/files/x/versions/y/restore'],
      ['DELETE', '/files/x/versions/y'],
      ['POST', '/files/x/hold', { reason: 'r' }],
      ['DELETE', '/files/x/hold'],
      ['GET', '/trash'],
      ['POST', '/trash/x/restore', {}],
      ['DELETE', '/trash/x'],
      ['POST', '/trash/empty', { owner: 'alice@example.com' }],
    ];
    for (const [method, path, body] of routes) {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: {
          'x-coffer-console': '1',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.equal(((await response.json()) as { code: string }).code, 'AUTH_REQUIRED');
    }
  });
});
