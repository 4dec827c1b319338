import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

type Entry = { name: string; path: string; fileCount: number; totalBytes: number };

// Issue 36 in the console API: an operator browses, moves and deletes one owner's folders, as
// the project's admin would through /api/v1/folders; checked through the owner's public API.
describe('console: folders', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let folders: string;
  let owner: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  const ids: Record<string, string> = {};

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    folders = `/projects/${coffer.credentials.projectId}/folders`;
    owner = await coffer.client.signup();
    for (const [path, content] of [
      ['top.txt', '1'],
      ['trip/a.jpg', '22'],
      ['trip/b.jpg', '333'],
      ['trip/day2/c.jpg', '4444'],
      ['kept/a.jpg', 'taken'],
    ] as const)
      ids[path] = (await coffer.client.uploadFile(owner.token, path, content))._id;
  });
  after(() => coffer.stop());

  const browse = (query: Record<string, string>) => call('GET', `${folders}?${new URLSearchParams(query)}`);
  const recordOf = (id: string) => coffer.client.call('GET', `/api/v1/file/${id}`, { token: owner.token });

  it("browses an owner's folder named by email: subtree counts and bytes, subfolders, direct files", async () => {
    const root = await browse({ owner: owner.email.toUpperCase() });
    assert.equal(root.status, 200, JSON.stringify(root.body));
    assert.equal(root.body.owner, owner.userId);
    assert.equal(root.body.ownerEmail, owner.email);
    assert.deepEqual([root.body.fileCount, root.body.totalBytes], [5, 15]);
    assert.deepEqual(
      root.body.folders.map(({ name, path, fileCount, totalBytes }: Entry) => ({
        name,
        path,
        fileCount,
        totalBytes,
      })),
      [
        { name: 'kept', path: 'kept/', fileCount: 1, totalBytes: 5 },
        { name: 'trip', path: 'trip/', fileCount: 3, totalBytes: 9 },
      ],
    );
    assert.deepEqual(
      root.body.files.map((file: { filePath: string }) => file.filePath),
      ['top.txt'],
    );
    // People are shown by email, as on the files page.
    assert.equal(root.body.files[0].people[owner.userId], owner.email);

    // By id too; a page at a time.
    const first = await browse({ owner: owner.userId, path: 'trip/', limit: '1' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.fileCount, first.body.totalBytes], [3, 9]);
    assert.deepEqual(
      first.body.folders.map((entry: Entry) => entry.path),
      ['trip/day2/'],
    );
    assert.deepEqual(
      first.body.files.map((file: { filePath: string }) => file.filePath),
      ['trip/a.jpg'],
    );
    const second = await browse({
      owner: owner.userId,
      path: 'trip/',
      limit: '1',
      cursor: first.body.nextCursor,
    });
    assert.deepEqual(
      second.body.files.map((file: { filePath: string }) => file.filePath),
      ['trip/b.jpg'],
    );
    assert.equal(second.body.nextCursor, null);
  });

  it('answers an owner without files an empty root, and refuses what is not there', async () => {
    const newcomer = await coffer.client.signup();
    const empty = await browse({ owner: newcomer.email });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.deepEqual(
      [empty.body.fileCount, empty.body.folders, empty.body.files, empty.body.nextCursor],
      [0, [], [], null],
    );
    const nobody = await browse({ owner: 'nobody@example.com' });
    assert.deepEqual([nobody.status, nobody.body.code], [404, 'USER_NOT_FOUND']);
    const missing = await browse({ owner: owner.email, path: 'no-such-folder/' });
    assert.deepEqual([missing.status, missing.body.code], [404, 'FOLDER_NOT_FOUND']);
    const unnamed = await call('GET', folders);
    assert.deepEqual([unnamed.status, unnamed.body.code], [400, 'VALIDATION_FAILED']);
    const elsewhere = await call('GET', `/projects/no-such-project/folders?owner=${owner.userId}`);
    assert.equal(elsewhere.status, 404);
    // The session barrier holds: a user's token opens nothing here.
    const withToken = await fetch(`${coffer.baseUrl}/console/api${folders}/delete`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.token}`,
        'x-coffer-console': '1',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ owner: owner.userId, path: 'kept/' }),
    });
    assert.equal(withToken.status, 401);
  });

  it('moves a folder whole, ids kept; a clash moves nothing and is named', async () => {
    const clash = await call('POST', `${folders}/move`, { owner: owner.email, from: 'trip/', to: 'kept/' });
    assert.deepEqual([clash.status, clash.body.code], [409, 'FOLDER_CONFLICT']);
    assert.match(clash.body.message, /kept\/a\.jpg/);
    assert.equal((await recordOf(ids['trip/a.jpg']!)).body.filePath, 'trip/a.jpg');
    const inside = await call('POST', `${folders}/move`, {
      owner: owner.email,
      from: 'trip/',
      to: 'trip/x/',
    });
    assert.deepEqual([inside.status, inside.body.code], [400, 'VALIDATION_FAILED']);

    const moved = await call('POST', `${folders}/move`, {
      owner: owner.userId,
      from: 'trip/',
      to: 'holiday/2026/',
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(moved.body, { moved: 3 });
    assert.equal((await recordOf(ids['trip/day2/c.jpg']!)).body.filePath, 'holiday/2026/day2/c.jpg');
    const root = await browse({ owner: owner.email });
    assert.deepEqual(
      root.body.folders.map((entry: Entry) => entry.path),
      ['holiday/', 'kept/'],
    );
  });

  it('deletes a folder whole: its files and bytes go', async () => {
    const deleted = await call('POST', `${folders}/delete`, { owner: owner.email, path: 'holiday/' });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body, { deleted: 3, bytes: 9 });
    for (const path of ['trip/a.jpg', 'trip/b.jpg', 'trip/day2/c.jpg'])
      assert.equal((await recordOf(ids[path]!)).status, 404, path);
    const again = await call('POST', `${folders}/delete`, { owner: owner.email, path: 'holiday/' });
    assert.deepEqual([again.status, again.body.code], [404, 'FOLDER_NOT_FOUND']);
    const root = await call('POST', `${folders}/delete`, { owner: owner.email, path: '' });
    assert.equal(root.status, 400, 'the root is no folder to delete');
    const left = await browse({ owner: owner.email });
    assert.deepEqual([left.body.fileCount, left.body.totalBytes], [2, 6]);
  });

  it("shares a folder: the grantee reads its files; the dialog's list names each share's folder and person", async () => {
    const grantee = await coffer.client.signup();
    const readKept = () =>
      coffer.client.call('GET', `/api/v1/file/${ids['kept/a.jpg']}`, { token: grantee.token });
    assert.equal((await readKept()).status, 403);
    const shared = await call('POST', `${folders}/share`, {
      owner: owner.email,
      path: 'kept/',
      email: grantee.email.toUpperCase(),
    });
    assert.equal(shared.status, 200, JSON.stringify(shared.body));
    assert.equal((await readKept()).status, 200, 'the grantee reads a file under the folder');
    const root = await call('POST', `${folders}/share`, { owner: owner.userId, path: '', role: 'auditor' });
    assert.equal(root.status, 200, JSON.stringify(root.body));

    const listed = await call(
      'GET',
      `${folders}/shares?${new URLSearchParams({ owner: owner.email, path: 'kept/' })}`,
    );
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual([listed.body.owner, listed.body.path], [owner.userId, 'kept/']);
    assert.deepEqual(
      listed.body.shares.map(({ scope, identifier, path }: Record<string, string>) => [
        scope,
        identifier,
        path,
      ]),
      [
        ['role', 'auditor', ''],
        ['user', grantee.userId, 'kept/'],
      ],
    );
    assert.deepEqual(listed.body.people, { [owner.userId]: owner.email, [grantee.userId]: grantee.email });

    // Refusals come in the API's words.
    const refusals = [
      [{ path: 'kept/', email: 'nobody@example.com' }, 404, 'USER_NOT_FOUND'],
      [{ path: 'no-such-folder/', role: 'auditor' }, 404, 'FOLDER_NOT_FOUND'],
      [{ path: 'kept/', role: 'auditor', email: grantee.email }, 400, 'VALIDATION_FAILED'],
      [{ path: 'kept/', email: owner.email }, 400, 'VALIDATION_FAILED'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const refused = await call('POST', `${folders}/share`, { owner: owner.email, ...body });
      assert.deepEqual([refused.status, refused.body.code], [status, code], JSON.stringify(body));
    }
    const unknownOwner = await call('GET', `${folders}/shares?owner=nobody%40example.com`);
    assert.deepEqual([unknownOwner.status, unknownOwner.body.code], [404, 'USER_NOT_FOUND']);

    const unshared = await call('POST', `${folders}/unshare`, {
      owner: owner.email,
      path: 'kept/',
      user: grantee.userId,
    });
    assert.equal(unshared.status, 200, JSON.stringify(unshared.body));
    assert.deepEqual(
      unshared.body.shares.map((share: { path: string }) => share.path),
      [''],
    );
    assert.equal((await readKept()).status, 403, 'unshared: the grantee reads it no more');
  });
});
