import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 36, item 4: sharing a whole folder, its files present and future. */
describe('folder shares', () => {
  let server: TestServer;
  let serviceKey: string;
  before(async () => {
    server = await startTestServer();
    serviceKey = await server.createServiceKey();
  });
  after(() => server?.stop());

  const post = (path: string, token: string, body?: unknown) =>
    server.client.call('POST', path, { token, body });
  const share = (account: Account, body: Record<string, unknown>) =>
    post('/api/v1/folders/share', account.token, body);
  const unshare = (account: Account, body: Record<string, unknown>) =>
    post('/api/v1/folders/unshare', account.token, body);
  const getFile = (account: Account, id: string) =>
    server.client.call('GET', `/api/v1/file/${id}`, { token: account.token });
  const browse = (account: Account, query: string) =>
    server.client.call('GET', `/api/v1/folders?${query}`, { token: account.token });
  const upload = async (account: Account, filePath: string) =>
    (await server.client.uploadFile(account.token, filePath, `bytes of ${filePath}`))._id;
  const expectCode = (answer: ApiResponse, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code);
  };

  it('reaches every file under the folder, present and future, and no other; records list it in folderAcl', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const stranger = await server.client.signup();
    const photo = await upload(owner, 'trip/photo.jpg');
    const deep = await upload(owner, 'trip/day1/deep.jpg');
    const outside = await upload(owner, 'tripper/outside.txt');
    assert.equal((await getFile(reader, photo)).status, 403);

    const shared = await share(owner, { path: 'trip/', user: reader.userId });
    assert.equal(shared.status, 200, shared.text);
    const entry = { scope: 'user', identifier: reader.userId, path: 'trip/' };
    assert.deepEqual(
      shared.body.shares.map(({ sharedAt: _, ...rest }: { sharedAt: string }) => rest),
      [entry],
    );
    const read = await getFile(reader, photo);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.folderAcl, [entry]);
    assert.deepEqual(
      read.body.acl,
      [{ scope: 'user', identifier: owner.userId }],
      "the file's own ACL is unchanged",
    );
    assert.equal((await getFile(reader, deep)).status, 200, 'a subfolder is reached');
    assert.equal((await getFile(reader, outside)).status, 403, 'a sibling with the same prefix is not');
    assert.equal((await getFile(stranger, photo)).status, 403);

    const later = await upload(owner, 'trip/day2/later.jpg');
    assert.equal((await getFile(reader, later)).status, 200, 'a file uploaded after the share is reached');
    const movedOut = await post(`/api/v1/file/${deep}/move`, owner.token, { filePath: 'private/deep.jpg' });
    assert.equal(movedOut.status, 200, movedOut.text);
    assert.deepEqual(movedOut.body.folderAcl, []);
    assert.equal((await getFile(reader, deep)).status, 403, 'a file moved out leaves the share');
    assert.equal(
      (await post(`/api/v1/file/${outside}/move`, owner.token, { filePath: 'trip/in.txt' })).status,
      200,
    );
    assert.equal((await getFile(reader, outside)).status, 200, 'a file moved in gains it');

    // The grantee browses the shared folder and below it, nothing else of the owner's.
    const page = await browse(reader, `owner=${owner.userId}&path=trip/`);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body.files.map((file: { filePath: string }) => file.filePath).sort(), [
      'trip/in.txt',
      'trip/photo.jpg',
    ]);
    assert.equal((await browse(reader, `owner=${owner.userId}&path=trip/day2/`)).status, 200);
    for (const path of ['', 'private/', 'tripper/']) {
      expectCode(await browse(reader, `owner=${owner.userId}&path=${path}`), 404, 'FOLDER_NOT_FOUND');
    }
    expectCode(await browse(stranger, `owner=${owner.userId}&path=trip/`), 404, 'FOLDER_NOT_FOUND');

    const again = await share(owner, { path: 'trip', user: reader.userId });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.shares.length, 1, 'sharing twice changes nothing');
  });

  it('roles and emails; who may share; refusals in the error shape', async () => {
    const owner = await server.client.signup();
    const editor = await server.client.signup();
    const stranger = await server.client.signup();
    const { projectId } = server.client.credentials;
    await server.services.repositories.users.setRole(projectId, editor.userId, 'editors');
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email: editor.email, password: editor.password },
    });
    const editorNow = { ...editor, token: login.body.token as string };
    const file = await upload(owner, 'album/a.jpg');

    assert.equal((await share(owner, { path: 'album/', role: 'editors' })).status, 200);
    assert.equal((await getFile(editorNow, file)).status, 200, 'a role share reaches the role');
    const byEmail = await share(owner, { path: 'album/', email: stranger.email.toUpperCase() });
    assert.equal(byEmail.status, 200, byEmail.text);
    assert.ok(byEmail.body.shares.some((one: { identifier: string }) => one.identifier === stranger.userId));
    assert.equal((await getFile(stranger, file)).status, 200);

    expectCode(await share(owner, { path: 'album/', email: 'nobody@example.com' }), 404, 'USER_NOT_FOUND');
    expectCode(await share(owner, { path: 'album/', user: '0'.repeat(24) }), 404, 'USER_NOT_FOUND');
    expectCode(await share(owner, { path: 'album/' }), 400, 'VALIDATION_FAILED');
    expectCode(
      await share(owner, { path: 'album/', role: 'x', user: editor.userId }),
      400,
      'VALIDATION_FAILED',
    );
    expectCode(await share(owner, { path: 'album/', user: owner.userId }), 400, 'VALIDATION_FAILED');
    expectCode(await share(owner, { path: 'album/../x/', role: 'x' }), 400, 'INVALID_FILE_PATH');
    expectCode(await share(owner, { path: 'empty/', role: 'x' }), 404, 'FOLDER_NOT_FOUND');
    // Another owner's folder: not even its existence is told, whether the caller is a grantee or not.
    const theirs = { owner: owner.userId, path: 'album/', role: 'x' };
    expectCode(await share(stranger, theirs), 404, 'FOLDER_NOT_FOUND');
    expectCode(await unshare(stranger, theirs), 404, 'FOLDER_NOT_FOUND');
    const listed = await server.client.call(
      'GET',
      `/api/v1/folders/shares?owner=${owner.userId}&path=album/`,
      {
        token: stranger.token,
      },
    );
    expectCode(listed, 404, 'FOLDER_NOT_FOUND');
    // A service key (the project's admin) shares any owner's folder.
    const byKey = await server.client.call('POST', '/api/v1/folders/share', { serviceKey, body: theirs });
    assert.equal(byKey.status, 200, byKey.text);
    assert.equal(byKey.body.shares.length, 3);
  });

  it('a folder past maxFolderOperationFiles is 413 FOLDER_TOO_LARGE to share, yet can always be unshared', async () => {
    const client = await server.createProject('folder-share-limits');
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    const settings: ProjectSettings = { ...current!.settings, maxFolderOperationFiles: 2 };
    await server.services.repositories.projects.updateSettings(projectId, settings);
    const owner = await client.signup();
    const reader = await client.signup();
    for (const name of ['a', 'b']) await client.uploadFile(owner.token, `big/${name}.txt`, name);
    const body = { path: 'big/', user: reader.userId };
    const shared = await client.call('POST', '/api/v1/folders/share', { token: owner.token, body });
    assert.equal(shared.status, 200, shared.text);
    await client.uploadFile(owner.token, 'big/c.txt', 'c');
    const tooLarge = await client.call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'big/', role: 'x' },
    });
    expectCode(tooLarge, 413, 'FOLDER_TOO_LARGE');
    const unshared = await client.call('POST', '/api/v1/folders/unshare', { token: owner.token, body });
    assert.equal(unshared.status, 200, unshared.text);
    assert.deepEqual(unshared.body.shares, []);
  });

  it('unsharing ends access and the links the share let the grantee obtain, at once', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await upload(owner, 'docs/report.pdf');
    const elsewhere = await upload(owner, 'notes/keep.txt');
    await share(owner, { path: 'docs/', user: reader.userId });
    const { url } = (await getFile(reader, file)).body;
    const ownLink = (await getFile(owner, elsewhere)).body.url;
    assert.equal((await fetch(url)).status, 200);

    const unshared = await unshare(owner, { path: 'docs/', user: reader.userId });
    assert.equal(unshared.status, 200, unshared.text);
    assert.deepEqual(unshared.body.shares, []);
    assert.equal((await getFile(reader, file)).status, 403);
    const refused = await fetch(url);
    assert.equal(refused.status, 403, 'the link the share gave is refused');
    await refused.body?.cancel();
    const kept = await fetch(ownLink);
    assert.equal(kept.status, 200, 'links of files outside the folder are kept');
    await kept.body?.cancel();
    assert.equal(
      (await unshare(owner, { path: 'docs/', user: reader.userId })).status,
      200,
      'unsharing twice',
    );
  });

  it('a folder move carries its shares; a move that would widen one is refused; a delete ends them', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const inside = await upload(owner, 'trip/day1/a.jpg');
    await upload(owner, 'full/other.txt');
    await share(owner, { path: 'trip/day1/', user: reader.userId });

    const moved = await post('/api/v1/folders/move', owner.token, { from: 'trip/', to: 'archive/trip/' });
    assert.equal(moved.status, 200, moved.text);
    const read = await getFile(reader, inside);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.folderAcl, [
      { scope: 'user', identifier: reader.userId, path: 'archive/trip/day1/' },
    ]);
    const listed = await server.client.call('GET', '/api/v1/folders/shares?path=archive/trip/day1/a', {
      token: owner.token,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.path, 'archive/trip/day1/a/');

    // Carrying the share onto full/ would hand the reader full/other.txt too.
    const widening = await post('/api/v1/folders/move', owner.token, {
      from: 'archive/trip/day1/',
      to: 'full/',
    });
    expectCode(widening, 409, 'FOLDER_CONFLICT');
    assert.match(widening.body.message, /"full\/"/);
    assert.equal((await getFile(reader, inside)).body.filePath, 'archive/trip/day1/a.jpg', 'nothing moved');

    const deleted = await post('/api/v1/folders/delete', owner.token, { path: 'archive/' });
    assert.equal(deleted.status, 200, deleted.text);
    const reborn = await upload(owner, 'archive/trip/day1/new.jpg');
    assert.equal((await getFile(reader, reborn)).status, 403, 'a file at a deleted folder is not shared');
  });

  it('shares are evented; the live stream shows a grantee the files of a folder shared with them', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    await upload(owner, 'live/first.txt');
    await share(owner, { path: 'live/', user: reader.userId });
    const stream = await openEventStream(server.client, reader.token);
    try {
      const later = await upload(owner, 'live/second.txt');
      await stream.waitFor(later);
    } finally {
      stream.close();
    }
    await unshare(owner, { path: 'live/', user: reader.userId });
    const audit = async (type: string) => {
      const answer = await server.client.call('GET', `/api/v1/audit?type=${type}&pageSize=100`, {
        serviceKey,
      });
      return (answer.body.events as { data: Record<string, unknown> }[]).find(
        (event) => event.data.owner === owner.userId,
      );
    };
    const entry = { scope: 'user', identifier: reader.userId };
    assert.deepEqual((await audit('folder.shared'))?.data, { owner: owner.userId, path: 'live/', entry });
    assert.deepEqual((await audit('folder.unshared'))?.data, { owner: owner.userId, path: 'live/', entry });
  });
});

/** GET /api/v1/events read as text until an event names `fileId`. */
async function openEventStream(client: ApiClient, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${client.baseUrl}/api/v1/events`, {
    headers: {
      'sb-app-id': client.credentials.appId,
      'sb-app-secret': client.credentials.appSecret,
      authorization: `Bearer ${token}`,
    },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async waitFor(fileId: string) {
      while (!text.includes(fileId)) {
        const { value, done } = await reader.read();
        if (done) assert.fail('the stream ended before the event came');
        text += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}
