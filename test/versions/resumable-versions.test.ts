import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { runTusUpload } from '../support/tus-upload.ts';

const KiB = 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

/** Issue 38: a new version uploaded resumably, by the stock tus client. */
describe('resumable uploads of a new version', () => {
  let server: TestServer;
  let client: ApiClient;
  let owner: Awaited<ReturnType<ApiClient['signup']>>;
  let projectId: string;
  before(async () => {
    server = await startTestServer();
    client = await server.createProject('resumable-versions');
    projectId = client.credentials.projectId;
    owner = await client.signup();
  });
  after(() => server?.stop());

  const requestVersion = async (fileId: string, body: Record<string, unknown>) => {
    const answer = await client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token: owner.token,
      body: { resumable: true, ...body },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { versionId: string; resumableUrl: string; postVerifyUploadUrl: string };
  };
  const bytesOf = async (fileId: string, versionId?: string) => {
    const query = versionId === undefined ? '' : `?versionId=${versionId}`;
    const file = await client.call('GET', `/api/v1/file/${fileId}${query}`, { token: owner.token });
    assert.equal(file.status, 200, file.text);
    return Buffer.from(await (await fetch(file.body.url)).arrayBuffer());
  };
  const usedBytes = async () =>
    (await server.services.repositories.storageUsage.find({ projectId, userId: owner.userId })).user.bytes;

  it('tus-js-client sends the new content in chunks; the verify makes it current, the old stays a version', async () => {
    const first = await client.uploadFile(owner.token, 'media/clip.bin', 'the first content');
    const content = randomBytes(300 * KiB + 17);
    const requested = await requestVersion(first._id, {
      contentLength: content.length,
      checksumSha256: sha256(content),
    });
    assert.match(requested.resumableUrl, /\/blob\/v1\/uploads\/[A-Za-z0-9_-]{22}\?exp=\d+&gen=0&kid=/);
    const sent = await runTusUpload(content, { uploadUrl: requested.resumableUrl, chunkSize: 100 * KiB });
    assert.ok(sent.ok, sent.ok ? '' : sent.error.message);
    assert.ok(sent.etag, 'the last PATCH answers the ETag');

    const verified = await client.call('POST', new URL(requested.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: sent.etag },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body._id, first._id, 'the same file');
    assert.equal(verified.body.versionId, requested.versionId);
    assert.ok((await bytesOf(first._id)).equals(content), 'the new bytes are current');
    assert.equal((await bytesOf(first._id, first._id)).toString(), 'the first content');
    assert.equal(await usedBytes(), 'the first content'.length + content.length);
  });

  it('terminating the upload removes the version upload and gives back its reservation', async () => {
    const first = await client.uploadFile(owner.token, 'media/kept.bin', 'kept');
    const usedBefore = await usedBytes();
    const requested = await requestVersion(first._id, { contentLength: 50 * KiB });
    assert.equal(await usedBytes(), usedBefore + 50 * KiB, 'the declared length is reserved');
    const part = await fetch(requested.resumableUrl, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: randomBytes(10 * KiB),
    });
    assert.equal(part.status, 204, await part.text());
    const terminated = await fetch(requested.resumableUrl, {
      method: 'DELETE',
      headers: { 'tus-resumable': '1.0.0' },
    });
    assert.equal(terminated.status, 204);
    assert.equal(await usedBytes(), usedBefore, 'the reservation is released');
    const verify = await client.call('POST', new URL(requested.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: '"whatever"' },
    });
    assert.equal(verify.status, 404, verify.text);
    assert.equal(verify.body.code, 'UPLOAD_NOT_FOUND');
    assert.equal((await bytesOf(first._id)).toString(), 'kept', 'the file is untouched');
  });

  it('revoking the file links ends its version uploads too, with the same answer as a bad URL', async () => {
    const first = await client.uploadFile(owner.token, 'media/revoked.bin', 'revoked');
    const requested = await requestVersion(first._id, { contentLength: 4 });
    await client.call('POST', `/api/v1/file/${first._id}/links/revoke`, { token: owner.token });
    const head = await fetch(requested.resumableUrl, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0' },
    });
    assert.equal(head.status, 404);
  });

  it('without contentLength, a resumable version is refused', async () => {
    const first = await client.uploadFile(owner.token, 'media/refused.bin', 'x');
    const noLength = await client.call('POST', `/api/v1/file/${first._id}/versions`, {
      token: owner.token,
      body: { resumable: true },
    });
    assert.equal(noLength.status, 400, noLength.text);
    assert.equal(noLength.body.code, 'VALIDATION_FAILED');
  });
});
