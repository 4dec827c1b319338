import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { endlessPut } from '../support/endless-put.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Issue 10, item 10: per-project limits and quotas, at the upload request and while bytes stream. */
describe('limits and quotas per project', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  /** A fresh project with these settings (set before its first upload: nothing cached yet) and a user. */
  let projects = 0;
  const projectWith = async (settings: Partial<ProjectSettings>) => {
    const client = await server.createProject(`quota-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    const user = await client.signup();
    return { client, projectId, ...user };
  };
  const request = (
    client: ApiClient,
    token: string,
    filePath: string,
    declared: Record<string, unknown> = {},
  ) => client.call('POST', '/api/v1/file', { token, body: { filePath, ...declared } });
  const putRaw = (url: string, body: string | Uint8Array, contentType = 'application/octet-stream') =>
    fetch(url, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': contentType } });
  const usageOf = (projectId: string, userId: string) =>
    server.services.repositories.storageUsage.find({ projectId, userId });

  /** What the rows say, counted the slow way: the usage kept by the triggers must equal it. */
  const assertUsageExact = async (projectId: string, userId: string) => {
    const listed = await server.services.repositories.files.list({
      projectId,
      readerId: userId,
      readerRole: 'user',
      isAdmin: true,
      limit: 1000,
      offset: 0,
    });
    const mine = listed.files.filter((file) => file.creatorId === userId);
    const bytes = mine.reduce(
      (sum, file) =>
        sum +
        (file.verified
          ? file.content!.sizeBytes
          : (file.pendingUpload?.sizeBytes ?? file.declared.sizeBytes ?? 0)),
      0,
    );
    const usage = await usageOf(projectId, userId);
    assert.deepEqual(usage.user, { files: mine.length, bytes });
    assert.deepEqual(usage.project, { files: listed.files.length, bytes: usage.project.bytes });
    return usage;
  };

  it('a file count quota refuses the upload request past it with 413 QUOTA_EXCEEDED; a delete makes room', async () => {
    const { client, token, projectId, userId } = await projectWith({ userQuotaFiles: 2 });
    const first = await request(client, token, 'a.txt');
    assert.equal(first.status, 200, first.text);
    assert.equal((await request(client, token, 'b.txt')).status, 200);
    const third = await request(client, token, 'c.txt');
    assert.equal(third.status, 413, third.text);
    assert.equal(third.body.code, 'QUOTA_EXCEEDED');
    assert.match(third.body.message, /2 files per user/);
    assert.equal((await client.call('DELETE', `/api/v1/file/${first.body.fileId}`, { token })).status, 204);
    assert.equal((await request(client, token, 'c.txt')).status, 200);
    await assertUsageExact(projectId, userId);
  });

  it('a project file quota counts every user of the project', async () => {
    const { client, token } = await projectWith({ projectQuotaFiles: 1 });
    assert.equal((await request(client, token, 'mine.txt')).status, 200);
    const other = await client.signup();
    const refused = await request(client, other.token, 'theirs.txt');
    assert.equal(refused.body.code, 'QUOTA_EXCEEDED', refused.text);
    assert.match(refused.body.message, /per project/);
  });

  it('maxFileSizeBytes: 413 FILE_TOO_LARGE at the request when declared, else while streaming', async () => {
    const { client, token, projectId, userId } = await projectWith({ maxFileSizeBytes: 10 });
    const declared = await request(client, token, 'big.bin', { contentLength: 11 });
    assert.equal(declared.status, 413, declared.text);
    assert.equal(declared.body.code, 'FILE_TOO_LARGE');
    const open = await request(client, token, 'open.bin');
    assert.equal(open.status, 200);
    const tooBig = await putRaw(open.body.putFileUrl, 'eleven byte');
    assert.equal(tooBig.status, 413);
    assert.equal((await tooBig.json()).code, 'FILE_TOO_LARGE');
    const fits = await putRaw(open.body.putFileUrl, 'ten bytes!');
    assert.equal(fits.status, 200);
    await assertUsageExact(projectId, userId);
  });

  it('a declared length reserves bytes at the request; a body past the room left is cut off while streaming', async () => {
    const { client, token, projectId, userId } = await projectWith({ userQuotaBytes: 100 });
    const reserved = await request(client, token, 'reserved.bin', { contentLength: 60 });
    assert.equal(reserved.status, 200, reserved.text);
    assert.deepEqual((await usageOf(projectId, userId)).user, { files: 1, bytes: 60 });
    const over = await request(client, token, 'over.bin', { contentLength: 41 });
    assert.equal(over.status, 413, over.text);
    assert.equal(over.body.code, 'QUOTA_EXCEEDED');
    assert.match(over.body.message, /100 bytes per user/);
    const open = await request(client, token, 'open.bin');
    assert.equal(open.status, 200);
    // The body never ends: only a cut-off answers it.
    const endless = await endlessPut(open.body.putFileUrl);
    assert.equal(endless.status, 413);
    assert.equal(endless.body.code, 'QUOTA_EXCEEDED');
    assert.equal((await putRaw(open.body.putFileUrl, 'x'.repeat(40))).status, 200);
    assert.deepEqual((await usageOf(projectId, userId)).user, { files: 2, bytes: 100 });
    await assertUsageExact(projectId, userId);
  });

  it('N concurrent uploads against a byte quota with room for k: exactly k are kept, usage exact', async () => {
    const n = 10;
    const k = 3;
    const { client, token, projectId, userId } = await projectWith({ userQuotaBytes: k * 100 });
    const requests = await Promise.all(
      Array.from({ length: n }, (_, index) => request(client, token, `race/${index}.bin`)),
    );
    for (const answer of requests) assert.equal(answer.status, 200, answer.text);
    const puts = await Promise.all(requests.map((answer) => putRaw(answer.body.putFileUrl, 'y'.repeat(100))));
    const statuses = puts.map((put) => put.status).sort();
    assert.deepEqual(statuses, [...Array(k).fill(200), ...Array(n - k).fill(413)]);
    const usage = await assertUsageExact(projectId, userId);
    assert.deepEqual(usage.user, { files: n, bytes: k * 100 });
  });

  it('N concurrent upload requests against a file quota with room for k: exactly k succeed', async () => {
    const n = 12;
    const k = 4;
    const { client, token, projectId, userId } = await projectWith({ projectQuotaFiles: k });
    const answers = await Promise.all(
      Array.from({ length: n }, (_, index) =>
        request(client, token, `files/${index}.txt`, { contentLength: 1 }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [...Array(k).fill(200), ...Array(n - k).fill(413)]);
    const usage = await assertUsageExact(projectId, userId);
    assert.deepEqual(usage.project, { files: k, bytes: k });
  });

  it('N concurrent copies of a 400 KiB file against userQuotaBytes=1 MiB: one is kept, usage exact', async () => {
    // Issue 25, item 3: each copy checked usage before its write, so all of them passed.
    const mib = 1024 * 1024;
    const sizeBytes = 400 * 1024;
    const { client, token, projectId, userId } = await projectWith({ userQuotaBytes: mib });
    const source = await client.uploadFile(token, 'copies/source.bin', Buffer.alloc(sizeBytes, 7));
    const n = 10;
    const copies = await Promise.all(
      Array.from({ length: n }, (_, index) =>
        client.call('POST', `/api/v1/file/${source._id}/copy`, {
          token,
          body: { filePath: `copies/${index}.bin` },
        }),
      ),
    );
    const refused = copies.filter((copy) => copy.status === 413);
    for (const copy of refused) assert.equal(copy.body.code, 'QUOTA_EXCEEDED', copy.text);
    // Room for one copy beside the source: 2 × 400 KiB ≤ 1 MiB < 3 × 400 KiB.
    assert.deepEqual(
      copies.map((copy) => copy.status).sort(),
      [200, ...Array(n - 1).fill(413)],
      copies.map((copy) => copy.text).join('\n'),
    );
    const usage = await assertUsageExact(projectId, userId);
    assert.deepEqual(usage.user, { files: 2, bytes: 2 * sizeBytes });
  });

  it('allowedContentTypes: a type it does not allow is 415 CONTENT_TYPE_NOT_ALLOWED at the request and at the PUT', async () => {
    const { client, token } = await projectWith({ allowedContentTypes: ['image/*'] });
    const declared = await request(client, token, 'page.html', { contentType: 'text/html' });
    assert.equal(declared.status, 415, declared.text);
    assert.equal(declared.body.code, 'CONTENT_TYPE_NOT_ALLOWED');
    const open = await request(client, token, 'pic.png');
    assert.equal(open.status, 200);
    const text = await putRaw(open.body.putFileUrl, 'hello', 'text/plain');
    assert.equal(text.status, 415);
    assert.equal((await text.json()).code, 'CONTENT_TYPE_NOT_ALLOWED');
    // security: HTML bytes labelled as an image are told by their content, and refused too.
    const disguised = await putRaw(
      open.body.putFileUrl,
      '<!DOCTYPE html><script>alert(1)</script>',
      'image/png',
    );
    assert.equal(disguised.status, 415);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    assert.equal((await putRaw(open.body.putFileUrl, png, 'image/png')).status, 200);
  });

  it('a quota lowered below usage refuses growth, never a smaller replacement', async () => {
    const { client, token, projectId, userId } = await projectWith({});
    const open = await request(client, token, 'grow.bin');
    assert.equal((await putRaw(open.body.putFileUrl, 'z'.repeat(50))).status, 200);
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      userQuotaBytes: 10,
    });
    // The settings reach the upload path within the access epoch's re-read: wait for it, with
    // uploads that each grow the file (a replacement no larger than before is always taken).
    for (let size = 51; ; size++) {
      const bigger = await putRaw(open.body.putFileUrl, 'z'.repeat(size));
      if (bigger.status === 413) break;
      assert.equal(bigger.status, 200);
    }
    assert.equal((await putRaw(open.body.putFileUrl, 'z'.repeat(20))).status, 200);
    assert.deepEqual((await usageOf(projectId, userId)).user, { files: 1, bytes: 20 });
  });
});
