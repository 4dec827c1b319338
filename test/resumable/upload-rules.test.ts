import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import { openLocalLeaseHolders } from '../../src/wiring/local-lease-holders.ts';
import { etagIn, isStackOnS3 } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';

const tus = { 'tus-resumable': '1.0.0' };
const chunkHeaders = (offset: number, extra: Record<string, string> = {}) => ({
  ...tus,
  'upload-offset': String(offset),
  'content-type': 'application/offset+octet-stream',
  ...extra,
});
const patch = (url: string, offset: number, body: Buffer, extra: Record<string, string> = {}) =>
  fetch(url, { method: 'PATCH', headers: chunkHeaders(offset, extra), body: body as BodyInit });
const head = (url: string) => fetch(url, { method: 'HEAD', headers: tus });
const offsetOf = async (url: string) => Number((await head(url)).headers.get('upload-offset'));
const digest = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('base64');

/** Issue 20's rules for resumable uploads, each checked where it would break. */
describe('resumable upload rules', () => {
  let server: TestServer;
  const clock = new ManualClock();
  let token: string;
  let userId: string;
  let count = 0;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    ({ token, userId } = await server.client.signup());
  });
  after(() => server?.stop());

  const requestResumable = async (length: number, extra: Record<string, unknown> = {}, as = token) => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token: as,
      body: { filePath: `rules/${count++}.bin`, contentLength: length, resumable: true, ...extra },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { fileId: string; resumableUrl: string };
  };
  const expectCode = async (response: Response, status: number, code: string) => {
    assert.equal(response.status, status);
    if (response.status !== 204 && (await response.clone().text()) !== '')
      assert.equal(((await response.json()) as { code: string }).code, code);
  };

  it('tus discovery: OPTIONS names the version, extensions, checksums and the size limit', async () => {
    const { resumableUrl } = await requestResumable(10);
    const answer = await fetch(resumableUrl, { method: 'OPTIONS' });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('tus-version'), '1.0.0');
    assert.deepEqual(answer.headers.get('tus-extension')?.split(','), [
      'creation',
      'creation-with-upload',
      'termination',
      'expiration',
      'checksum',
    ]);
    assert.equal(answer.headers.get('tus-checksum-algorithm'), 'sha1,sha256');
    assert.ok(Number(answer.headers.get('tus-max-size')) > 0);
    // The creation endpoint too, and a browser's preflight for it from an allowed origin.
    const creation = await fetch(`${server.baseUrl}/api/v1/uploads`, { method: 'OPTIONS' });
    assert.equal(creation.status, 204);
    assert.equal(creation.headers.get('tus-version'), '1.0.0');
    const origin = 'https://app.example';
    await server.createProject(`tus-origin-${count++}`, [origin]);
    const preflight = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'upload-length, upload-metadata, tus-resumable',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /upload-metadata/);
  });

  it("tus discovery with an app id names that project's size limit; without one, the server's", async () => {
    const small = await server.createProject(`tus-limit-${count++}`);
    const { projectId, appId } = small.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    const limit = 64 * 1024 * 1024;
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      maxFileSizeBytes: limit,
    });
    const discover = (headers: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/v1/uploads`, { method: 'OPTIONS', headers });
    const ofProject = await discover({ 'sb-app-id': appId });
    assert.equal(ofProject.status, 204);
    assert.equal(ofProject.headers.get('tus-max-size'), String(limit));
    const serverWide = String(server.services.config.maxFileSizeBytes);
    assert.equal((await discover({})).headers.get('tus-max-size'), serverWide);
    assert.equal((await discover({ 'sb-app-id': 'no-such-app' })).headers.get('tus-max-size'), serverWide);
  });

  it('needs Tus-Resumable (412), application/offset+octet-stream (415) and the current offset (409)', async () => {
    const { resumableUrl } = await requestResumable(10);
    const noVersion = await fetch(resumableUrl, { method: 'HEAD' });
    assert.equal(noVersion.status, 412);
    assert.equal(noVersion.headers.get('tus-version'), '1.0.0');
    const oldVersion = await fetch(resumableUrl, {
      method: 'PATCH',
      headers: { ...chunkHeaders(0), 'tus-resumable': '0.2.2' },
      body: 'x',
    });
    await expectCode(oldVersion, 412, 'TUS_VERSION_UNSUPPORTED');
    await expectCode(
      await fetch(resumableUrl, {
        method: 'PATCH',
        headers: { ...chunkHeaders(0), 'content-type': 'application/octet-stream' },
        body: 'x',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assert.equal((await patch(resumableUrl, 0, Buffer.from('hello'))).status, 204);
    const conflict = await patch(resumableUrl, 3, Buffer.from('lo, '));
    await expectCode(conflict, 409, 'UPLOAD_OFFSET_CONFLICT');
    assert.equal(await offsetOf(resumableUrl), 5);
    // More bytes than Upload-Length: refused, and nothing past the length is kept.
    await expectCode(await patch(resumableUrl, 5, Buffer.from('world, and more')), 400, 'CONTENT_MISMATCH');
    assert.ok((await offsetOf(resumableUrl)) <= 10);
  });

  it('a URL of another upload, tampered, or of a deleted file, answers 404 UPLOAD_NOT_FOUND', async () => {
    const mine = await requestResumable(10);
    const other = await requestResumable(10);
    const url = new URL(mine.resumableUrl);
    const otherId = new URL(other.resumableUrl).pathname.split('/').pop()!;
    const swapped = new URL(mine.resumableUrl);
    swapped.pathname = swapped.pathname.replace(/[^/]+$/, otherId);
    const tamperedExp = mine.resumableUrl.replace(/exp=(\d+)/, (_m, exp) => `exp=${Number(exp) + 1}`);
    const tamperedSig = mine.resumableUrl.replace(/sig=([^&]+)/, (_m, sig) => `sig=${sig.slice(1)}A`);
    const noQuery = `${url.origin}${url.pathname}`;
    for (const bad of [swapped.toString(), tamperedExp, tamperedSig, noQuery]) {
      await expectCode(await head(bad), 404, 'UPLOAD_NOT_FOUND');
      await expectCode(await patch(bad, 0, Buffer.from('x')), 404, 'UPLOAD_NOT_FOUND');
    }
    assert.equal((await head(mine.resumableUrl)).status, 200);
    const deleted = await server.client.call('DELETE', `/api/v1/file/${mine.fileId}`, { token });
    assert.equal(deleted.status, 204, deleted.text);
    await expectCode(await patch(mine.resumableUrl, 0, Buffer.from('x')), 404, 'UPLOAD_NOT_FOUND');
  });

  it("revoking the file's links, or disabling its creator, stops the upload", async () => {
    const revoked = await requestResumable(10);
    assert.equal((await patch(revoked.resumableUrl, 0, Buffer.from('abc'))).status, 204);
    const revoke = await server.client.call('POST', `/api/v1/file/${revoked.fileId}/links/revoke`, { token });
    assert.equal(revoke.status, 204, revoke.text);
    await expectCode(await patch(revoked.resumableUrl, 3, Buffer.from('def')), 404, 'UPLOAD_NOT_FOUND');

    const other = await server.client.signup();
    const disabled = await requestResumable(10, {}, other.token);
    const { projectId } = server.credentials;
    await server.services.repositories.users.setEnabled(projectId, other.userId, false);
    try {
      await expectCode(await head(disabled.resumableUrl), 404, 'UPLOAD_NOT_FOUND');
    } finally {
      await server.services.repositories.users.setEnabled(projectId, other.userId, true);
    }
    assert.equal((await head(disabled.resumableUrl)).status, 200);
  });

  it('checksum: a chunk that does not match its Upload-Checksum is discarded with 460', async () => {
    const { resumableUrl } = await requestResumable(8);
    const chunk = Buffer.from('abcd');
    const wrong = await patch(resumableUrl, 0, chunk, {
      'upload-checksum': `sha256 ${digest('sha256', Buffer.from('abce'))}`,
    });
    await expectCode(wrong, 460, 'CHECKSUM_MISMATCH');
    assert.equal(await offsetOf(resumableUrl), 0);
    const sha1 = await patch(resumableUrl, 0, chunk, { 'upload-checksum': `sha1 ${digest('sha1', chunk)}` });
    assert.equal(sha1.status, 204);
    const unknown = await patch(resumableUrl, 4, chunk, { 'upload-checksum': `md5 ${digest('md5', chunk)}` });
    await expectCode(unknown, 400, 'VALIDATION_FAILED');
    const sha256 = await patch(resumableUrl, 4, chunk, {
      'upload-checksum': `sha256 ${digest('sha256', chunk)}`,
    });
    assert.equal(sha256.status, 204);
    assert.match(sha256.headers.get('etag') ?? '', /^".+"$/);
    // The disk tags the bytes kept, whatever was refused on the way, with the running SHA-256.
    if (!isStackOnS3())
      assert.equal(sha256.headers.get('etag'), etagIn('truncated-sha256', Buffer.concat([chunk, chunk])));
  });

  it('the declared SHA-256 is checked over the whole file at completion', async () => {
    const content = randomBytes(1000);
    const { fileId, resumableUrl } = await requestResumable(content.length, {
      checksumSha256: digest('sha256', randomBytes(1000)),
    });
    assert.equal((await patch(resumableUrl, 0, content.subarray(0, 500))).status, 204);
    await expectCode(await patch(resumableUrl, 500, content.subarray(500)), 400, 'CONTENT_MISMATCH');
    const verify = await server.client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag: '"x"' },
    });
    assert.equal(verify.body.code, 'UPLOAD_MISSING', 'refused bytes never became the upload');
  });

  it('two PATCHes racing at one offset: one writes, the other gets 409 or 423, the bytes are whole', async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const { fileId, resumableUrl } = await requestResumable(content.length);
    const answers = await Promise.all([patch(resumableUrl, 0, content), patch(resumableUrl, 0, content)]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.equal(statuses.filter((status) => status === 204).length, 1, `statuses ${statuses}`);
    assert.ok([409, 423].includes(statuses.find((status) => status !== 204)!), `statuses ${statuses}`);
    const etag = answers.find((answer) => answer.status === 204)!.headers.get('etag');
    const verify = await server.client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag },
    });
    assert.equal(verify.status, 200, verify.text);
    assert.equal(verify.body.meta.ChecksumSHA256, digest('sha256', content));
    // On the disk, the ETag is made of that same SHA-256 (S3 gives its multipart tag).
    if (!isStackOnS3()) assert.equal(etag, etagIn('truncated-sha256', content));
    // A repeat of the final PATCH (its answer lost) answers the same, without bytes.
    const repeat = await patch(resumableUrl, content.length, Buffer.alloc(0));
    assert.equal(repeat.status, 204);
    assert.equal(repeat.headers.get('etag'), etag);
  });

  it('a lease another node holds: 423 UPLOAD_LOCKED, until it is released or lapses', async () => {
    const { resumableUrl } = await requestResumable(4);
    const uploadId = new URL(resumableUrl).pathname.split('/').pop()!;
    const leases = server.services.repositories.resumableUploads;
    const elsewhere = { owner: 'another-node', until: new Date(clock.now().getTime() + 30_000) };
    assert.ok(await leases.takeLease(uploadId, elsewhere, clock.now()));
    const locked = await patch(resumableUrl, 0, Buffer.from('ab'));
    await expectCode(locked, 423, 'UPLOAD_LOCKED');
    // Retry-After: the seconds until the lease lapses (issue 35), not a guess.
    assert.equal(locked.headers.get('retry-after'), '30');
    assert.equal(await offsetOf(resumableUrl), 0);
    clock.advance(31); // the other node died: its lease lapses
    assert.equal((await patch(resumableUrl, 0, Buffer.from('ab'))).status, 204);
    assert.ok(
      await leases.takeLease(
        uploadId,
        { ...elsewhere, until: new Date(clock.now().getTime() + 30_000) },
        clock.now(),
      ),
    );
    await expectCode(await patch(resumableUrl, 2, Buffer.from('cd')), 423, 'UPLOAD_LOCKED');
    await leases.releaseLease(uploadId, 'another-node');
    assert.equal((await patch(resumableUrl, 2, Buffer.from('cd'))).status, 204);
    clock.set(Math.floor(Date.now() / 1000));
  });

  it('a lease whose process on this node is gone is taken at once, not after it lapses', async () => {
    const { resumableUrl } = await requestResumable(4);
    const uploadId = new URL(resumableUrl).pathname.split('/').pop()!;
    const leases = server.services.repositories.resumableUploads;
    // This process's own name for holders, with another start time: a process that held this
    // pid before (the kernel reuses pids), long gone.
    const [node, pid] = (await openLocalLeaseHolders()).self.split('/');
    const until = new Date(clock.now().getTime() + 30_000);
    assert.ok(
      await leases.takeLease(uploadId, { owner: 'killed', until, holder: `${node}/${pid}/1` }, clock.now()),
    );
    assert.equal((await patch(resumableUrl, 0, Buffer.from('ab'))).status, 204);
    // A holder on another node cannot be judged from here: its lease stands until it lapses.
    const remote = { owner: 'remote', until, holder: `another-node/${pid}/1` };
    assert.ok(await leases.takeLease(uploadId, remote, clock.now()));
    await expectCode(await patch(resumableUrl, 2, Buffer.from('cd')), 423, 'UPLOAD_LOCKED');
    await leases.releaseLease(uploadId, 'remote');
  });

  describe('quota', () => {
    const projectWith = async (settings: Partial<ProjectSettings>) => {
      const client = await server.createProject(`resumable-quota-${count++}`);
      const { projectId } = client.credentials;
      const current = await server.services.repositories.projects.findById(projectId);
      await server.services.repositories.projects.updateSettings(projectId, {
        ...current!.settings,
        ...settings,
      });
      return { client, projectId, ...(await client.signup()) };
    };

    it('Upload-Length is reserved at creation and released by termination', async () => {
      const {
        client,
        token: owner,
        projectId,
        userId: ownerId,
      } = await projectWith({ userQuotaBytes: 1000 });
      const ask = (filePath: string) =>
        client.call('POST', '/api/v1/file', {
          token: owner,
          body: { filePath, contentLength: 700, resumable: true },
        });
      const first = await ask('a.bin');
      assert.equal(first.status, 200, first.text);
      const usage = await server.services.repositories.storageUsage.find({ projectId, userId: ownerId });
      assert.equal(usage.user.bytes, 700);
      const second = await ask('b.bin');
      assert.equal(second.body.code, 'QUOTA_EXCEEDED');
      const terminated = await fetch(first.body.resumableUrl, { method: 'DELETE', headers: tus });
      assert.equal(terminated.status, 204);
      await expectCode(await head(first.body.resumableUrl), 404, 'UPLOAD_NOT_FOUND');
      assert.equal(
        (await server.services.repositories.storageUsage.find({ projectId, userId: ownerId })).user.bytes,
        0,
      );
      assert.equal((await ask('b.bin')).status, 200);
    });
  });

  it('a committed upload cannot be terminated or take more bytes', async () => {
    const { resumableUrl } = await requestResumable(3);
    assert.equal((await patch(resumableUrl, 0, Buffer.from('abc'))).status, 204);
    await expectCode(await fetch(resumableUrl, { method: 'DELETE', headers: tus }), 409, 'UPLOAD_FINISHED');
    await expectCode(await patch(resumableUrl, 0, Buffer.from('abc')), 409, 'UPLOAD_OFFSET_CONFLICT');
  });

  it("HEAD and an empty PATCH answer the file's current ETag, and 410 once a PUT replaced the upload's bytes", async () => {
    const kept = await requestResumable(3);
    const committed = await patch(kept.resumableUrl, 0, Buffer.from('abc'));
    const etag = committed.headers.get('etag');
    assert.ok(etag);
    assert.equal((await head(kept.resumableUrl)).headers.get('etag'), etag);
    const verified = await server.client.call('POST', `/api/v1/file/${kept.fileId}/verify`, {
      token,
      body: { etag },
    });
    assert.equal(verified.status, 200, verified.text);
    const afterVerify = await head(kept.resumableUrl);
    assert.equal(afterVerify.status, 200);
    assert.equal(afterVerify.headers.get('etag'), verified.body.etag);

    const replaced = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `rules/${count++}.bin`, contentLength: 3, resumable: true },
    });
    assert.equal(replaced.status, 200, replaced.text);
    const { resumableUrl, putFileUrl, fileId } = replaced.body as Record<string, string>;
    const done = await patch(resumableUrl!, 0, Buffer.from('abc'));
    assert.equal(done.status, 204);
    // The same length, other bytes: the contract holds, the content is another.
    const put = await fetch(putFileUrl!, { method: 'PUT', body: 'xyz' });
    assert.equal(put.status, 200, await put.clone().text());
    const putEtag = put.headers.get('etag');
    assert.notEqual(putEtag, done.headers.get('etag'));
    await expectCode(await head(resumableUrl!), 410, 'UPLOAD_REPLACED');
    await expectCode(await patch(resumableUrl!, 3, Buffer.alloc(0)), 410, 'UPLOAD_REPLACED');
    // The file itself is the PUT's: verify takes its ETag.
    const pinned = await server.client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag: putEtag },
    });
    assert.equal(pinned.status, 200, pinned.text);
    await expectCode(await head(resumableUrl!), 410, 'UPLOAD_REPLACED');
  });

  it('a repeated request for an unfinished upload, same contract, answers it again; another contract or a finished one is 409', async () => {
    const filePath = `rules/${count++}.bin`;
    const ask = (body: Record<string, unknown>) =>
      server.client.call('POST', '/api/v1/file', { token, body: { filePath, resumable: true, ...body } });
    const contract = { contentLength: 10, contentType: 'application/x-test' };
    const first = await ask(contract);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.resumed, undefined);
    assert.equal((await patch(first.body.resumableUrl, 0, Buffer.from('hello'))).status, 204);

    const again = await ask(contract);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.fileId, first.body.fileId);
    assert.equal(again.body.resumed, true);
    const uploadId = (url: string) => new URL(url).pathname.split('/').pop();
    assert.equal(uploadId(again.body.resumableUrl), uploadId(first.body.resumableUrl), 'the same upload');
    assert.equal(await offsetOf(again.body.resumableUrl), 5);
    for (const other of [
      { ...contract, contentLength: 11 },
      { ...contract, contentType: 'text/plain' },
      { ...contract, checksumSha256: digest('sha256', Buffer.from('hello world')) },
    ]) {
      const refused = await ask(other);
      assert.equal(refused.status, 409, JSON.stringify(other));
      assert.equal(refused.body.code, 'FILE_EXISTS');
    }
    // Without `resumable` the request stays a bare FILE_EXISTS, as tus creation does.
    const plain = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath, ...contract },
    });
    assert.equal(plain.body.code, 'FILE_EXISTS');

    const done = await patch(again.body.resumableUrl, 5, Buffer.from('world'));
    assert.equal(done.status, 204);
    const finished = await ask(contract);
    assert.equal(finished.status, 409, finished.text);
    assert.equal(finished.body.code, 'FILE_EXISTS');
  });

  it('expiry: an upload idle past Upload-Expires is swept, its bytes and reservation gone', async () => {
    const { fileId, resumableUrl } = await requestResumable(100);
    assert.equal((await patch(resumableUrl, 0, Buffer.alloc(40, 1))).status, 204);
    const uploadId = new URL(resumableUrl).pathname.split('/').pop()!;
    const { blobVersion } = (await server.services.repositories.resumableUploads.findById(uploadId))!;
    const partFile = path.join(server.dataDir, 'blobs', '.resumable', `${blobVersion}.part`);
    const onDisk = currentStackName() === 'embedded';
    if (onDisk) assert.equal((await stat(partFile)).size, 40);
    const expires = Date.parse((await head(resumableUrl)).headers.get('upload-expires') ?? '');
    assert.ok(expires > clock.now().getTime());
    clock.set(Math.ceil(expires / 1000) + 1);
    await expectCode(await head(resumableUrl), 404, 'UPLOAD_NOT_FOUND');
    const before = await server.services.repositories.storageUsage.find({
      projectId: server.credentials.projectId,
      userId,
    });
    assert.ok((await server.services.resumableUploads!.sweepExpired(100)) >= 1);
    assert.equal(await server.services.repositories.files.findById(fileId), undefined);
    assert.equal(await server.services.repositories.resumableUploads.findById(uploadId), undefined);
    if (onDisk) await assert.rejects(stat(partFile), { code: 'ENOENT' }, 'its bytes are gone');
    const afterSweep = await server.services.repositories.storageUsage.find({
      projectId: server.credentials.projectId,
      userId,
    });
    // Its 100 reserved bytes are free (other uploads that expired meanwhile may have gone too).
    assert.ok(
      afterSweep.user.bytes <= before.user.bytes - 100,
      `${before.user.bytes} → ${afterSweep.user.bytes}`,
    );
    clock.set(Math.floor(Date.now() / 1000));
  });

  it('/metrics shows the uploads and bytes in progress', async () => {
    const gauge = async (name: string) => {
      const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
      return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    };
    const uploads = await gauge('coffer_resumable_uploads_in_progress');
    const bytes = await gauge('coffer_resumable_upload_bytes_in_progress');
    const { resumableUrl } = await requestResumable(100);
    assert.equal((await patch(resumableUrl, 0, Buffer.alloc(60, 2))).status, 204);
    assert.equal(await gauge('coffer_resumable_uploads_in_progress'), uploads + 1);
    assert.equal(await gauge('coffer_resumable_upload_bytes_in_progress'), bytes + 60);
  });

  it('a PUT with Content-Range is refused with 400, naming the resumable upload', async () => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `rules/${count++}` },
    });
    assert.equal(answer.status, 200, answer.text);
    const put = await fetch(answer.body.putFileUrl, {
      method: 'PUT',
      headers: { 'content-range': 'bytes 0-9/20' },
      body: '0123456789',
    });
    assert.equal(put.status, 400);
    assert.match(((await put.json()) as { message: string }).message, /resumable/);
  });
});
