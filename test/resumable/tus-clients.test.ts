import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startCuttingProxy } from '../support/cutting-proxy.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { runTusUpload } from '../support/tus-upload.ts';

const MiB = 1024 * 1024;

/** Asks again until `probe` answers something (at most 10 s): a condition, not a sleep. */
async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

/** Issue 20: resumable uploads as stock tus clients (tus-js-client, Uppy's way of creating) see them. */
describe('resumable uploads with tus-js-client', () => {
  let server: TestServer;
  let token: string;
  let count = 0;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server?.stop());

  const requestResumable = async (content: Buffer, extra: Record<string, unknown> = {}) => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `tus/${count++}.bin`, contentLength: content.length, resumable: true, ...extra },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { fileId: string; putFileUrl: string; resumableUrl: string };
  };
  const verify = (fileId: string, etag: string | undefined) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag: etag ?? '' } });
  const download = async (fileId: string) => {
    const file = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(file.status, 200, file.text);
    return Buffer.from(await (await fetch(file.body.url)).arrayBuffer());
  };
  const head = (url: string) => fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });

  it('a connection cut mid-PATCH: a new client resumes from resumableUrl, and the file verifies', async () => {
    const content = randomBytes(3 * MiB + 12_345);
    const { fileId, resumableUrl } = await requestResumable(content, { checksumSha256: sha256(content) });
    assert.match(resumableUrl, /\/blob\/v1\/uploads\/[A-Za-z0-9_-]{22}\?exp=\d+&gen=0&kid=/);
    // One 1 MiB chunk gets through, the second is cut about half way.
    const proxy = await startCuttingProxy(server.baseUrl, Math.floor(1.5 * MiB));
    try {
      const first = await runTusUpload(content, { uploadUrl: proxy.url(resumableUrl), chunkSize: MiB });
      assert.equal(first.ok, false, 'the cut connection fails the first client');
      assert.equal(proxy.cuts(), 1);
    } finally {
      await proxy.stop();
    }
    // What the cut PATCH had delivered is kept, more than the first whole chunk, once the
    // server has seen the connection end (the client knows of the cut first).
    const status = await waitFor(async () => {
      const answer = await head(resumableUrl);
      return Number(answer.headers.get('upload-offset')) > MiB ? answer : undefined;
    });
    assert.equal(status.status, 200);
    const kept = Number(status.headers.get('upload-offset'));
    assert.ok(kept < 2 * MiB, `kept ${kept}`);
    assert.equal(status.headers.get('upload-length'), String(content.length));
    assert.equal(status.headers.get('cache-control'), 'no-store');
    assert.ok(Date.parse(status.headers.get('upload-expires') ?? '') > Date.now());
    let resumedFrom = -1;
    const second = await runTusUpload(content, {
      uploadUrl: resumableUrl,
      chunkSize: 700 * 1024,
      onProgress: (sent) => {
        if (resumedFrom < 0) resumedFrom = sent;
      },
    });
    assert.ok(second.ok, second.ok ? '' : String(second.error));
    assert.ok(resumedFrom >= kept, `resumed from ${resumedFrom}, kept ${kept}`);
    const verified = await verify(fileId, second.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
    assert.deepEqual(await download(fileId), content);
  });

  it('Uppy-style creation through POST /api/v1/uploads, with and without data in the creation', async () => {
    for (const uploadDataDuringCreation of [false, true]) {
      const content = randomBytes(MiB + 77);
      const filePath = `tus/created-${count++}.bin`;
      let fileId: string | undefined;
      const outcome = await runTusUpload(content, {
        endpoint: `${server.baseUrl}/api/v1/uploads`,
        headers: {
          'sb-app-id': server.credentials.appId,
          'sb-app-secret': server.credentials.appSecret,
          authorization: `Bearer ${token}`,
        },
        metadata: { filePath, contentType: 'application/octet-stream' },
        chunkSize: 512 * 1024,
        uploadDataDuringCreation,
        onAfterResponse: (request, response) => {
          if (request.getMethod() === 'POST') fileId = response.getHeader('Coffer-File-Id');
        },
      });
      assert.ok(outcome.ok, outcome.ok ? '' : String(outcome.error));
      assert.ok(fileId, 'the creation answers Coffer-File-Id');
      const listed = await server.client.call(
        'GET',
        `/api/v1/file?filePath=${encodeURIComponent(filePath)}`,
        {
          token,
        },
      );
      assert.equal(listed.body.docs[0]?._id, fileId);
      assert.equal((await verify(fileId, outcome.etag)).status, 200);
      assert.deepEqual(await download(fileId), content);
    }
  });

  it('an empty file is complete once created', async () => {
    const filePath = `tus/empty-${count++}.txt`;
    let fileId: string | undefined;
    const outcome = await runTusUpload(Buffer.alloc(0), {
      endpoint: `${server.baseUrl}/api/v1/uploads`,
      headers: {
        'sb-app-id': server.credentials.appId,
        'sb-app-secret': server.credentials.appSecret,
        authorization: `Bearer ${token}`,
      },
      metadata: { filePath },
      onAfterResponse: (request, response) => {
        if (request.getMethod() === 'POST') fileId = response.getHeader('Coffer-File-Id');
      },
    });
    assert.ok(outcome.ok, outcome.ok ? '' : String(outcome.error));
    const status = await head(outcome.url ?? '');
    assert.equal(status.headers.get('upload-offset'), '0');
    assert.equal((await verify(fileId ?? '', status.headers.get('etag') ?? undefined)).status, 200);
  });
});
