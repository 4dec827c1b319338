import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { endlessPut } from '../support/endless-put.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { streamedPut } from '../support/streamed-put.ts';
import { currentStackName } from '../support/test-stack.ts';

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('base64');

/** Issue 10, item 6: an upload request may declare contentLength, contentType and checksumSha256. */
describe('upload contracts: the gateway refuses a body that differs from what was declared', () => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server?.stop());

  const request = async (declared: Record<string, unknown>, filePath = `contract/${counter++}.bin`) => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath, ...declared },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { fileId: string; putFileUrl: string };
  };
  const put = (url: string, body: string, contentType?: string) =>
    fetch(url, { method: 'PUT', body, headers: contentType ? { 'content-type': contentType } : {} });
  const verify = (fileId: string, etag: string | null) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag: etag ?? '"0"' } });

  /** Nothing of a refused body was kept: no upload to verify, and (on disk) no temp file. */
  const assertNothingKept = async (fileId: string) => {
    assert.equal((await verify(fileId, '"0"')).body.code, 'UPLOAD_MISSING');
    if (currentStackName() === 'embedded') {
      const tmp = await readdir(path.join(server.dataDir, 'blobs', '.tmp')).catch(() => []);
      assert.deepEqual(tmp, []);
    }
  };

  it('a body that matches every declaration is stored, and verify records its SHA-256', async () => {
    const content = 'hello, contract';
    const { fileId, putFileUrl } = await request({
      contentLength: Buffer.byteLength(content),
      contentType: 'text/plain',
      checksumSha256: sha256(content),
    });
    const stored = await put(putFileUrl, content, 'text/plain; charset=utf-8');
    assert.equal(stored.status, 200, await stored.clone().text());
    const verified = await verify(fileId, stored.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
    assert.equal(verified.body.meta.ContentLength, String(Buffer.byteLength(content)));
    assert.match(verified.body.meta.ContentType, /^text\/plain/);
  });

  it('verify records the SHA-256 of an upload that declared nothing, multipart forms included', async () => {
    const content = Buffer.alloc(300_000, 7);
    const { fileId, putFileUrl } = await request({});
    const answer = await streamedPut({ url: putFileUrl, body: content, multipart: true });
    assert.equal(answer.status, 200, answer.text);
    const verified = await verify(fileId, answer.etag ?? null);
    assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
  });

  const refusals = [
    { name: 'shorter than declared', declared: { contentLength: 10 }, body: 'short', names: /length/ },
    {
      name: 'another checksum',
      declared: { checksumSha256: sha256('something else') },
      body: 'this',
      names: /checksum/,
    },
    {
      name: 'another type',
      declared: { contentType: 'image/png' },
      body: 'text',
      type: 'text/plain',
      names: /type/,
    },
    {
      name: 'right length, wrong checksum',
      declared: { contentLength: 4, checksumSha256: sha256('abcd') },
      body: 'abce',
      names: /checksum/,
    },
  ];
  for (const refusal of refusals) {
    it(`a body ${refusal.name} is 400 CONTENT_MISMATCH naming it, and nothing is kept`, async () => {
      const { fileId, putFileUrl } = await request(refusal.declared);
      const answer = await put(putFileUrl, refusal.body, refusal.type ?? 'application/octet-stream');
      const body = await answer.json();
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(body.code, 'CONTENT_MISMATCH');
      assert.match(body.message, refusal.names);
      await assertNothingKept(fileId);
    });
  }

  it('a multipart form whose data part differs is refused too', async () => {
    const { fileId, putFileUrl } = await request({ contentLength: 5, checksumSha256: sha256('12345') });
    const answer = await streamedPut({ url: putFileUrl, body: Buffer.from('12346'), multipart: true });
    assert.equal(answer.status, 400, answer.text);
    assert.equal(JSON.parse(answer.text).code, 'CONTENT_MISMATCH');
    await assertNothingKept(fileId);
  });

  it('a body longer than declared is cut off as soon as it exceeds it (the body never ends)', async () => {
    const { fileId, putFileUrl } = await request({ contentLength: 100_000 });
    const answer = await endlessPut(putFileUrl);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 'CONTENT_MISMATCH');
    assert.match(answer.body.message ?? '', /length/);
    await assertNothingKept(fileId);
  });

  it('a PUT without a content type takes the declared one', async () => {
    const { fileId, putFileUrl } = await request({ contentType: 'image/png' });
    const stored = await fetch(putFileUrl, { method: 'PUT', body: new Uint8Array([1, 2, 3]) });
    assert.equal(stored.status, 200);
    const verified = await verify(fileId, stored.headers.get('etag'));
    assert.equal(verified.body.meta.ContentType, 'image/png');
  });

  it('declarations that are not well formed are 400 VALIDATION_FAILED', async () => {
    for (const declared of [
      { contentLength: -1 },
      { contentLength: 1.5 },
      { contentLength: '12' },
      { contentType: 'not a type' },
      { checksumSha256: 'abc' },
      { checksumSha256: Buffer.alloc(32).toString('hex').slice(0, 44) },
      { checksumSha256: `${sha256('x').slice(0, 42)}B=` }, // unused low bits set: another spelling
    ]) {
      const answer = await server.client.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `contract/bad-${counter++}.bin`, ...declared },
      });
      assert.equal(answer.status, 400, `${JSON.stringify(declared)}: ${answer.text}`);
      assert.equal(answer.body.code, 'VALIDATION_FAILED');
    }
  });
});
