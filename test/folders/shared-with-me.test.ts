import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;
type Item = {
  kind: 'file' | 'folder';
  scope: 'user' | 'role';
  sharedAt: string;
  owner?: string;
  path?: string;
  fileCount?: number;
  totalBytes?: number;
  file?: { _id: string; filePath: string; acl: unknown };
};

/** Issue 36, item 5: GET /api/v1/shared, the files and folders shared with the caller. */
describe('shared with me', () => {
  let server: TestServer;
  let serviceKey: string;
  // Shares made at one tick share their time: the order of ties is part of what is tested.
  const clock = new ManualClock();
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    serviceKey = await server.createServiceKey();
  });
  after(() => server?.stop());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.client.call(method, path, { token, body });
  const upload = async (account: Account, filePath: string) =>
    (await server.client.uploadFile(account.token, filePath, `bytes of ${filePath}`))._id;
  const shareFile = async (owner: Account, id: string, scope: 'user' | 'role', who: string) =>
    expectOk(await call('POST', `/api/v1/file/${id}/acl/${scope}/${who}`, owner.token));
  const shareFolder = async (owner: Account, path: string, grantee: Record<string, string>) =>
    expectOk(await call('POST', '/api/v1/folders/share', owner.token, { path, ...grantee }));
  const shared = (account: Account, query = '') => call('GET', `/api/v1/shared?${query}`, account.token);
  const expectOk = (answer: ApiResponse) => {
    assert.equal(answer.status, 200, answer.text);
    return answer;
  };
  const expectCode = (answer: ApiResponse, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code);
  };
  /** Each item as one line: what, whose, by which scope. */
  const describeItems = (items: Item[]) =>
    items.map((item) =>
      item.kind === 'file'
        ? `file ${item.file?.filePath} ${item.scope}`
        : `folder ${item.path} ${item.scope} ${item.fileCount}`,
    );
  /** A user of the project whose role is `role`, with a token that carries it. */
  const withRole = async (role: string): Promise<Account> => {
    const account = await server.client.signup();
    await server.services.repositories.users.setRole(
      server.client.credentials.projectId,
      account.userId,
      role,
    );
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email: account.email, password: account.password },
    });
    return { ...account, token: expectOk(login).body.token as string };
  };
  /** Every item, following nextCursor `pageSize` at a time. */
  const walk = async (account: Account, pageSize: number) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `pageSize=${pageSize}${cursor === null ? '' : `&cursor=${cursor}`}`;
      const page = expectOk(await shared(account, query)).body;
      assert.ok(page.items.length <= pageSize);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return items;
  };

  it('lists file and folder shares by id and by role, newest first, never the caller own', async () => {
    const owner = await server.client.signup();
    const reader = await withRole('editors');
    const a = await upload(owner, 'a.txt');
    const b = await upload(owner, 'b.txt');
    await upload(owner, 'docs/x.txt');
    await upload(owner, 'pics/y.jpg');
    const gone = await upload(owner, 'gone/z.txt');
    const own = await upload(reader, 'mine/r.txt');

    clock.advance(1);
    await shareFile(owner, a, 'user', reader.userId);
    clock.advance(1);
    await shareFolder(owner, 'docs/', { role: 'editors' });
    clock.advance(1);
    await shareFile(owner, b, 'role', 'editors');
    clock.advance(1);
    await shareFolder(owner, 'pics', { user: reader.userId });
    clock.advance(1);
    await shareFolder(owner, 'gone/', { user: reader.userId });
    // The share outlives the folder's last file: it reaches files to come.
    assert.equal((await call('DELETE', `/api/v1/file/${gone}`, owner.token)).status, 204);
    clock.advance(1);
    // The reader's own file and folder, shared with the reader's role, are not shared *with* them.
    await shareFile(reader, own, 'role', 'editors');
    await shareFolder(reader, 'mine/', { role: 'editors' });

    const page = expectOk(await shared(reader)).body;
    assert.deepEqual(describeItems(page.items), [
      'folder gone/ user 0',
      'folder pics/ user 1',
      'file b.txt role',
      'folder docs/ role 1',
      'file a.txt user',
    ]);
    assert.equal(page.nextCursor, null);
    const [goneFolder, pics, fileB] = page.items as Item[];
    assert.deepEqual(goneFolder, {
      kind: 'folder',
      scope: 'user',
      sharedAt: new Date((clock.seconds - 1) * 1000).toISOString(),
      owner: owner.userId,
      path: 'gone/',
      fileCount: 0,
      totalBytes: 0,
    });
    assert.equal(pics?.totalBytes, 'bytes of pics/y.jpg'.length);
    assert.equal(fileB?.file?._id, b);
    assert.deepEqual(fileB?.file?.acl, [
      { scope: 'user', identifier: owner.userId },
      { scope: 'role', identifier: 'editors' },
    ]);

    // Another holder of the role sees the role's shares (the reader's own ones too), not the reader's.
    const colleague = await withRole('editors');
    assert.deepEqual(describeItems(expectOk(await shared(colleague)).body.items), [
      // Shared at one tick: a file before a folder (the order of ties, docs/decisions.md).
      'file mine/r.txt role',
      'folder mine/ role 1',
      'file b.txt role',
      'folder docs/ role 1',
    ]);
  });

  it('pages with a cursor across kinds and scopes, ties of time included', async () => {
    const owner = await server.client.signup();
    const other = await server.client.signup();
    const reader = await withRole('pagers');
    const ids: string[] = [];
    for (const name of ['p1', 'p2', 'p3', 'p4']) ids.push(await upload(owner, `${name}.txt`));
    for (const name of ['f1', 'f2', 'f3']) await upload(owner, `${name}/x.txt`);
    await upload(other, 'f1/y.txt');

    clock.advance(1);
    // One tick: every set holds shares of the same time.
    await shareFile(owner, ids[0]!, 'user', reader.userId);
    await shareFile(owner, ids[1]!, 'user', reader.userId);
    await shareFile(owner, ids[2]!, 'role', 'pagers');
    await shareFile(owner, ids[2]!, 'user', reader.userId);
    await shareFolder(owner, 'f1/', { user: reader.userId });
    await shareFolder(other, 'f1/', { user: reader.userId });
    await shareFolder(owner, 'f2/', { role: 'pagers' });
    clock.advance(1);
    await shareFile(owner, ids[3]!, 'role', 'pagers');
    await shareFolder(owner, 'f3/', { user: reader.userId });

    const whole = expectOk(await shared(reader, 'pageSize=100')).body.items as Item[];
    assert.equal(whole.length, 9, 'a file shared by id and by role is two shares');
    const times = whole.map((item) => Date.parse(item.sharedAt));
    assert.deepEqual(
      times,
      [...times].sort((x, y) => y - x),
      'newest first',
    );
    for (const pageSize of [1, 2, 4]) {
      assert.deepEqual(await walk(reader, pageSize), whole, `pages of ${pageSize} make the whole list`);
    }

    // A share made after a page was read lands before it: the next page goes on where it was.
    const first = expectOk(await shared(reader, 'pageSize=3')).body;
    clock.advance(1);
    await shareFolder(owner, 'f2/', { user: reader.userId });
    const next = expectOk(await shared(reader, `pageSize=6&cursor=${first.nextCursor}`)).body;
    assert.deepEqual(next.items, whole.slice(3));
    assert.equal(next.nextCursor, null);
  });

  it('unsharing removes the share; shares of another project never appear', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await upload(owner, 'report.pdf');
    await upload(owner, 'album/one.jpg');
    clock.advance(1);
    await shareFile(owner, file, 'user', reader.userId);
    await shareFolder(owner, 'album/', { user: reader.userId });
    await shareFolder(owner, 'album/', { role: 'user' });
    assert.equal(expectOk(await shared(reader)).body.items.length, 3);

    expectOk(
      await call('POST', '/api/v1/folders/unshare', owner.token, { path: 'album/', user: reader.userId }),
    );
    assert.equal(
      (await call('DELETE', `/api/v1/file/${file}/acl/user/${reader.userId}`, owner.token)).status,
      204,
    );
    assert.deepEqual(describeItems(expectOk(await shared(reader)).body.items), ['folder album/ role 1']);
    expectOk(await call('POST', '/api/v1/folders/unshare', owner.token, { path: 'album/', role: 'user' }));
    assert.deepEqual(expectOk(await shared(reader)).body.items, []);

    // In another project, shares name the same role, and a user id of this one.
    const elsewhere = await server.createProject('shared-elsewhere');
    const stranger = await elsewhere.signup();
    const theirs = (await elsewhere.uploadFile(stranger.token, 'far/away.txt', 'far'))._id;
    const them = (method: string, path: string, body?: unknown) =>
      elsewhere.call(method, path, { token: stranger.token, body });
    expectOk(await them('POST', `/api/v1/file/${theirs}/acl/role/user`));
    expectOk(await them('POST', '/api/v1/folders/share', { path: 'far/', role: 'user' }));
    const strangerFriend = await elsewhere.signup();
    const seen = await elsewhere.call('GET', '/api/v1/shared', { token: strangerFriend.token });
    assert.equal(expectOk(seen).body.items.length, 2, 'the role sees them in their own project');
    assert.deepEqual(expectOk(await shared(reader)).body.items, []);
  });

  it('answers the file records a point read keeps, and each file as it is now after a change', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const ids = [await upload(owner, 'kept/a.txt'), await upload(owner, 'kept/b.txt')];
    for (const id of ids) await shareFile(owner, id, 'user', reader.userId);
    const page = async () => {
      const { items } = await server.services.repositories.sharedWithMe.findShared({
        projectId: server.credentials.projectId,
        grantee: { userId: reader.userId, role: 'user' },
        limit: 10,
      });
      return new Map(items.flatMap((item) => (item.kind === 'file' ? [[item.file.id, item.file]] : [])));
    };
    const pointReads = await Promise.all(ids.map((id) => server.services.repositories.files.findById(id)));
    const first = await page();
    assert.equal(first.get(ids[0]!), pointReads[0], 'the page answers the point reads’ kept records');
    assert.equal(first.get(ids[1]!), pointReads[1]);

    // A change to one file's row, and a share of the folder holding both (their folder ACLs).
    expectOk(await call('PATCH', `/api/v1/file/${ids[1]}`, owner.token, { customData: { w: 2 } }));
    await shareFolder(owner, 'kept/', { role: 'auditor' });
    const now = await page();
    assert.deepEqual(now.get(ids[1]!)?.customData, { w: 2 });
    for (const id of ids)
      assert.deepEqual(now.get(id)?.folderAcl, [{ scope: 'role', identifier: 'auditor', path: 'kept/' }]);
    const again = await page();
    assert.equal(again.get(ids[0]!), now.get(ids[0]!), 'the records read whole are kept for the next page');
    assert.equal(again.get(ids[0]!), await server.services.repositories.files.findById(ids[0]!));
    assert.ok(Object.isFrozen(again.get(ids[1]!)), 'kept records are shared: frozen');
  });

  it('refuses a bad cursor, a bad page size and a service key with 400; no token with 401', async () => {
    const reader = await server.client.signup();
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cursors = [
      'garbage!',
      'xyz',
      encode([1, 'file']),
      encode([-1, 'file', 'user', 'abc']),
      encode([1, 'thing', 'user', 'abc']),
      encode([1, 'folder', 'user', 'abc']),
      encode({ sharedAt: 1 }),
      `${encode([1, 'file', 'user', 'abc'])}=`,
    ];
    for (const cursor of cursors) {
      expectCode(await shared(reader, `cursor=${encodeURIComponent(cursor)}`), 400, 'VALIDATION_FAILED');
    }
    expectOk(await shared(reader, `cursor=${encode([1, 'file', 'user', 'abc'])}`));
    for (const pageSize of ['0', '101', 'x', '1.5']) {
      expectCode(await shared(reader, `pageSize=${pageSize}`), 400, 'VALIDATION_FAILED');
    }
    expectCode(await shared(reader, 'owner=x'), 400, 'VALIDATION_FAILED');
    expectCode(await server.client.call('GET', '/api/v1/shared', { serviceKey }), 400, 'VALIDATION_FAILED');
    expectCode(await server.client.call('GET', '/api/v1/shared'), 401, 'AUTH_REQUIRED');
  });
});
