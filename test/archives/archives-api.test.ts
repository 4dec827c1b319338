import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';
import { assertStockReadersAccept } from '../support/zip-readers.ts';

/**
 * Issue 40, items 2–4: POST /api/v1/archives and the ZIP behind its link, checked with the
 * stock readers (unzip, Python's zipfile, 7-Zip) entry by entry against the files' bytes.
 */
describe(`archives (${currentStackName()} stack)`, () => {
  const clock = new ManualClock();
  let server: TestServer;
  let dir = '';
  let projects = 0;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-archives-'));
  });
  after(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const projectWith = async (settings: Partial<ProjectSettings> = {}) => {
    const client = await server.createProject(`archives-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    return client;
  };
  const archive = (client: ApiClient, token: string, body: unknown) =>
    client.call('POST', '/api/v1/archives', { token, body });
  const created = (answer: ApiResponse) => {
    assert.equal(answer.status, 201, answer.text);
    return answer.body as {
      url: string;
      expiresAt: number;
      fileCount: number;
      totalBytes: number;
      archiveBytes: number;
    };
  };
  const expectCode = (
    answer: ApiResponse | { status: number; body: { code: string } },
    status: number,
    code: string,
  ) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.code, code);
  };
  const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
  const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const errorOf = async (url: string, method = 'GET') => {
    const response = await fetch(url, { method });
    const text = await response.text();
    return { status: response.status, body: method === 'HEAD' ? { code: '' } : JSON.parse(text) };
  };
  let zips = 0;
  const checkZip = async (bytes: Buffer, expected: Map<string, string>) => {
    const file = path.join(dir, `archive-${zips++}.zip`);
    await writeFile(file, bytes);
    await assertStockReadersAccept(file, expected);
  };
  const archivedRows = async () =>
    Number(
      (
        await server.services.database.db
          .selectFrom('archives')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a selection: its files under their paths, UTF-8 names, a clash numbered, read by unzip, zipfile and 7-Zip', async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const friend = await client.signup();
    const big = randomBytes(300_000);
    const mine = [
      await client.uploadFile(owner.token, 'photos/été/Привет мир.bin', big),
      await client.uploadFile(owner.token, '日本語/ファイル 🎉.txt', 'こんにちは'),
      await client.uploadFile(owner.token, 'empty.txt', ''),
      await client.uploadFile(owner.token, 'notes/a.txt', 'mine'),
    ];
    const shared = await client.uploadFile(friend.token, 'notes/a.txt', 'theirs');
    await client.call('POST', `/api/v1/file/${shared._id}/acl/user/${owner.userId}`, { token: friend.token });
    const ids = [...mine.map((file) => file._id), shared._id, mine[0]!._id];
    const answer = created(await archive(client, owner.token, { fileIds: ids }));
    assert.equal(answer.fileCount, 5, 'a duplicate id counts once');
    assert.equal(answer.totalBytes, big.length + Buffer.byteLength('こんにちは') + 4 + 6);
    assert.match(answer.url, /\/blob\/v1\/archives\/[^?]+\?exp=\d+&kid=[^&]+&sig=[^&]+$/);

    const head = await fetch(answer.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(answer.archiveBytes));
    assert.equal(head.headers.get('content-type'), 'application/zip');
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    assert.match(head.headers.get('etag') ?? '', /^"[^"]+"$/);
    assert.match(head.headers.get('content-disposition') ?? '', /files\.zip/);

    const { response, bytes } = await fetchBytes(answer.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-length'), String(answer.archiveBytes));
    assert.equal(response.headers.get('etag'), head.headers.get('etag'));
    assert.equal(bytes.length, answer.archiveBytes);
    await checkZip(
      bytes,
      new Map([
        ['photos/été/Привет мир.bin', sha256(big)],
        ['日本語/ファイル 🎉.txt', sha256('こんにちは')],
        ['empty.txt', sha256('')],
        ['notes/a.txt', sha256('mine')],
        ['notes/a (2).txt', sha256('theirs')],
      ]),
    );
    const again = await fetchBytes(answer.url);
    assert.ok(again.bytes.equals(bytes), 'every download is the same bytes');
  });

  it('a folder: its subtree, names relative to it, named after it; another owner’s through a share', async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const reader = await client.signup();
    await client.uploadFile(owner.token, 'album/one.txt', 'one');
    await client.uploadFile(owner.token, 'album/2026/été.txt', 'summer');
    await client.uploadFile(owner.token, 'albums-not-this/x.txt', 'no');
    await client.uploadFile(owner.token, 'other.txt', 'no');
    const expected = new Map([
      ['one.txt', sha256('one')],
      ['2026/été.txt', sha256('summer')],
    ]);
    const answer = created(await archive(client, owner.token, { folder: { path: 'album' } }));
    assert.equal(answer.fileCount, 2);
    const { response, bytes } = await fetchBytes(answer.url);
    assert.match(response.headers.get('content-disposition') ?? '', /album\.zip/);
    await checkZip(bytes, expected);

    // Not shared: nothing of it is told (as GET /api/v1/folders answers another owner's folder).
    expectCode(
      await archive(client, reader.token, { folder: { owner: owner.userId, path: 'album/' } }),
      404,
      'FOLDER_NOT_FOUND',
    );
    const share = await client.call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'album/', user: reader.userId },
    });
    assert.equal(share.status, 200, share.text);
    const theirs = created(
      await archive(client, reader.token, { folder: { owner: owner.userId, path: 'album/' } }),
    );
    await checkZip((await fetchBytes(theirs.url)).bytes, expected);
  });

  it('a broken download resumes with Range and If-Range: the same bytes as a whole download, readable', async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const parts = [randomBytes(700_000), randomBytes(5), randomBytes(400_000)];
    const files: { _id: string }[] = [];
    for (const [index, part] of parts.entries())
      files.push(await client.uploadFile(owner.token, `resume/part-${index}.bin`, part));
    // Bytes whose CRC was never recorded (stored before migration 0036, or sent straight to
    // S3): their entries carry data descriptors, and the CRC is learnt from the bytes.
    await server.services.database.db
      .updateTable('files')
      .set({ content_crc32: null })
      .where(
        'id',
        'in',
        files.map((file) => file._id),
      )
      .execute();
    const answer = created(await archive(client, owner.token, { fileIds: files.map((file) => file._id) }));
    const whole = await fetchBytes(answer.url);
    const etag = whole.response.headers.get('etag')!;

    const make = async () =>
      created(await archive(client, owner.token, { fileIds: files.map((file) => file._id) }));
    for (const cut of [1, 350_000, 700_100, answer.archiveBytes - 30]) {
      // A fresh archive each time, made while the CRC is unknown again, so the resumed part must
      // compute the CRCs of entries whose bytes it does not send.
      await server.services.database.db.updateTable('files').set({ content_crc32: null }).execute();
      const fresh = await make();
      // The first attempt breaks off after `cut` bytes: the client goes away mid-stream.
      const broken = new AbortController();
      const first = await fetch(fresh.url, { signal: broken.signal });
      const received: Buffer[] = [];
      let length = 0;
      const reader = first.body!.getReader();
      while (length < cut) {
        const { value, done } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
        length += value.length;
      }
      broken.abort();
      const head = Buffer.concat(received).subarray(0, cut);
      const rest = await fetchBytes(fresh.url, { range: `bytes=${cut}-`, 'if-range': etag });
      assert.equal(rest.response.status, 206);
      assert.equal(
        rest.response.headers.get('content-range'),
        `bytes ${cut}-${fresh.archiveBytes - 1}/${fresh.archiveBytes}`,
      );
      const joined = Buffer.concat([head, rest.bytes]);
      assert.ok(joined.equals(whole.bytes), `resumed at ${cut}: the bytes differ`);
    }
    await checkZip(
      whole.bytes,
      new Map(parts.map((part, index) => [`resume/part-${index}.bin`, sha256(part)])),
    );
    // The CRCs learnt were kept for the files' versions.
    const kept = await server.services.database.db
      .selectFrom('files')
      .select('content_crc32')
      .where(
        'id',
        'in',
        files.map((file) => file._id),
      )
      .execute();
    assert.ok(kept.every((row) => row.content_crc32 !== null));
    // A stale If-Range gets the whole archive; a range past the end is 416.
    const stale = await fetchBytes(answer.url, { range: 'bytes=10-', 'if-range': '"other"' });
    assert.equal(stale.response.status, 200);
    assert.ok(stale.bytes.equals(whole.bytes));
    const past = await fetch(answer.url, { headers: { range: `bytes=${answer.archiveBytes}-` } });
    assert.equal(past.status, 416);
    await past.arrayBuffer();
  });

  it('410 ARCHIVE_STALE once a file is trashed, deleted, replaced or its links revoked; before any byte', async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const make = async (name: string) => {
      const file = await client.uploadFile(owner.token, `stale/${name}.txt`, name);
      const keep = await client.uploadFile(owner.token, `stale/${name}-kept.txt`, 'kept');
      const answer = created(await archive(client, owner.token, { fileIds: [file._id, keep._id] }));
      assert.equal((await fetch(answer.url, { method: 'HEAD' })).status, 200);
      return { file, url: answer.url };
    };
    const trashed = await make('trashed');
    assert.equal(
      (await client.call('DELETE', `/api/v1/file/${trashed.file._id}`, { token: owner.token })).status,
      204,
    );
    const purged = await make('purged');
    await client.call('DELETE', `/api/v1/file/${purged.file._id}`, { token: owner.token });
    assert.equal(
      (await client.call('DELETE', `/api/v1/trash/${purged.file._id}`, { token: owner.token })).status,
      204,
    );
    const replaced = await make('replaced');
    const requested = await client.call('POST', `/api/v1/file/${replaced.file._id}/versions`, {
      token: owner.token,
      body: {},
    });
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: 'new',
      headers: { 'content-type': 'text/plain' },
    });
    const verified = await client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const revoked = await make('revoked');
    assert.equal(
      (await client.call('POST', `/api/v1/file/${revoked.file._id}/links/revoke`, { token: owner.token }))
        .status,
      204,
    );
    for (const { url } of [trashed, purged, replaced, revoked]) {
      expectCode(await errorOf(url), 410, 'ARCHIVE_STALE');
      assert.equal((await errorOf(url, 'HEAD')).status, 410);
      expectCode(
        await (async () => {
          const response = await fetch(url, { headers: { range: 'bytes=100-' } });
          return { status: response.status, body: await response.json() };
        })(),
        410,
        'ARCHIVE_STALE',
      );
    }
  });

  it("refused files are named (403, 404, 409) and nothing is made; a stranger's file never goes in", async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const stranger = await client.signup();
    const mine = await client.uploadFile(owner.token, 'mine.txt', 'mine');
    const theirs = await client.uploadFile(stranger.token, 'theirs.txt', 'theirs');
    const theirsToo = await client.uploadFile(stranger.token, 'theirs-too.txt', 'theirs');
    const before = await archivedRows();
    const denied = await archive(client, owner.token, { fileIds: [mine._id, theirs._id, theirsToo._id] });
    expectCode(denied, 403, 'ACCESS_DENIED');
    assert.deepEqual(denied.body.details, { fileIds: [theirs._id, theirsToo._id], moreFileIds: 0 });
    const unknown = await archive(client, owner.token, {
      fileIds: [mine._id, 'AAAAAAAAAAAAAAAAAAAAAA', 'not an id'],
    });
    expectCode(unknown, 404, 'FILE_NOT_FOUND');
    assert.deepEqual(unknown.body.details.fileIds, ['AAAAAAAAAAAAAAAAAAAAAA', 'not an id']);
    const pending = await client.call('POST', '/api/v1/file', {
      token: owner.token,
      body: { filePath: 'pending.txt' },
    });
    const unverified = await archive(client, owner.token, { fileIds: [mine._id, pending.body.fileId] });
    expectCode(unverified, 409, 'FILE_NOT_VERIFIED');
    assert.deepEqual(unverified.body.details.fileIds, [pending.body.fileId]);
    // A stranger's whole root: nothing readable, nothing told.
    expectCode(
      await archive(client, owner.token, { folder: { owner: stranger.userId, path: '' } }),
      404,
      'FOLDER_NOT_FOUND',
    );
    assert.equal(await archivedRows(), before, 'no archive was made');
    // Bad bodies are 400.
    for (const body of [
      {},
      { fileIds: [] },
      { fileIds: ['x'], folder: { path: 'a' } },
      { folder: {} },
      { fileIds: [mine._id], expiresInSeconds: 0 },
    ])
      expectCode(await archive(client, owner.token, body), 400, 'VALIDATION_FAILED');
    // No token: 401, whatever the body.
    assert.equal(
      (await client.call('POST', '/api/v1/archives', { body: { fileIds: [mine._id] } })).status,
      401,
    );
  });

  it('413 ARCHIVE_TOO_LARGE past maxArchiveFiles or maxArchiveBytes, for a selection and a folder', async () => {
    const few = await projectWith({ maxArchiveFiles: 2 });
    const owner = await few.signup();
    const files: { _id: string }[] = [];
    for (const name of ['a', 'b', 'c'])
      files.push(await few.uploadFile(owner.token, `limit/${name}.txt`, name));
    const before = await archivedRows();
    expectCode(
      await archive(few, owner.token, { fileIds: files.map((file) => file._id) }),
      413,
      'ARCHIVE_TOO_LARGE',
    );
    expectCode(await archive(few, owner.token, { folder: { path: 'limit/' } }), 413, 'ARCHIVE_TOO_LARGE');
    created(await archive(few, owner.token, { fileIds: files.slice(0, 2).map((file) => file._id) }));

    const small = await projectWith({ maxArchiveBytes: 10 });
    const user = await small.signup();
    const a = await small.uploadFile(user.token, 'bytes/a.txt', '123456');
    const b = await small.uploadFile(user.token, 'bytes/b.txt', '123456');
    expectCode(await archive(small, user.token, { fileIds: [a._id, b._id] }), 413, 'ARCHIVE_TOO_LARGE');
    expectCode(await archive(small, user.token, { folder: { path: 'bytes' } }), 413, 'ARCHIVE_TOO_LARGE');
    assert.equal(await archivedRows(), before + 1, 'only the archive within the limits was made');
  });

  it('a link refused once expired, and when any part of it is altered', async () => {
    const client = await projectWith();
    const owner = await client.signup();
    const file = await client.uploadFile(owner.token, 'expiring.txt', 'x');
    const answer = created(await archive(client, owner.token, { fileIds: [file._id], expiresInSeconds: 60 }));
    assert.equal(answer.expiresAt, clock.seconds + 60);
    assert.equal((await fetch(answer.url, { method: 'HEAD' })).status, 200);
    expectCode(await errorOf(answer.url.replace(/sig=./, 'sig=A')), 403, 'INVALID_SIGNATURE');
    expectCode(await errorOf(answer.url.replace('&kid=', '&gen=0&kid=')), 403, 'INVALID_SIGNATURE');
    expectCode(
      await errorOf(answer.url.replace(/exp=\d+/, `exp=${answer.expiresAt + 1}`)),
      403,
      'INVALID_SIGNATURE',
    );
    // A download link's signature is no archive link's.
    const download = await client.call('GET', `/api/v1/file/${file._id}`, { token: owner.token });
    const query = new URL(download.body.url).search;
    expectCode(
      await errorOf(`${new URL(answer.url).origin}/blob/v1/archives/${file._id}${query}`),
      403,
      'INVALID_SIGNATURE',
    );
    clock.advance(61);
    expectCode(await errorOf(answer.url), 403, 'LINK_EXPIRED');
  });
});
