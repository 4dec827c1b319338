import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

const MiB = 1024 * 1024;
const onS3 = currentStackName() === 'pg-s3';

/**
 * Issue 43: POST /api/v1/file/:id/multipart/sign, Uppy's `@uppy/aws-s3` `signRequest`. Coffer
 * signs only requests on the file's one upload and key; the browser test
 * (test/client/uppy-s3-browser.test.ts) runs the whole upload through the plugin.
 */
describe('signing Uppy S3 requests (multipart/sign)', () => {
  let server: TestServer;
  let token: string;
  let count = 0;
  before(async () => {
    server = await startTestServer();
    ({ token } = await server.client.signup());
  });
  after(() => server?.stop());

  const requestUpload = async (contentLength: number) => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `signed/${count++}.bin`, contentLength },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.fileId as string;
  };
  const sign = (fileId: string, body: Record<string, unknown>, as = token) =>
    server.client.call('POST', `/api/v1/file/${fileId}/multipart/sign`, { token: as, body });
  const create = { method: 'POST', operation: 'createMultipartUpload' };

  it('is refused as its sibling routes are where the store is not S3', { skip: onS3 }, async () => {
    const fileId = await requestUpload(10);
    const signed = await sign(fileId, create);
    const sibling = await server.client.call('POST', `/api/v1/file/${fileId}/multipart`, { token });
    assert.equal(signed.status, 400, signed.text);
    assert.equal(signed.body.code, sibling.body.code);
  });

  it('refuses what is no S3 request of an upload: an unknown operation, a wrong method, a key', async () => {
    const fileId = await requestUpload(10);
    for (const body of [
      { method: 'POST', operation: 'putObject' },
      { method: 'PUT', operation: 'createMultipartUpload' },
      { ...create, key: 'someone-elses/key' },
    ]) {
      const signed = await sign(fileId, body);
      assert.equal(signed.status, 400, `${JSON.stringify(body)}: ${signed.text}`);
      assert.equal(signed.body.code, 'VALIDATION_FAILED');
    }
  });

  describe('on S3', { skip: onS3 ? false : 'needs S3: runs in the PostgreSQL + S3 pass' }, () => {
    const start = async (contentLength = 5 * MiB + 10) => {
      const fileId = await requestUpload(contentLength);
      const signed = await sign(fileId, create);
      assert.equal(signed.status, 200, signed.text);
      const started = await fetch(signed.body.url, { method: 'POST' });
      const xml = await started.text();
      assert.equal(started.status, 200, xml);
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(xml)?.[1]?.replace(/&amp;/g, '&');
      assert.ok(uploadId, xml);
      return { fileId, uploadId, signed: signed.body };
    };

    it("creates the file's one upload, under the file's key, whatever the client asked", async () => {
      const { fileId, uploadId, signed } = await start();
      assert.equal(signed.key, fileId);
      assert.ok(signed.url.startsWith(server.baseUrl), 'CreateMultipartUpload is answered by Coffer');
      // The upload is the one POST …/multipart runs (its row, its reservation, its sweep).
      const listed = await server.client.call('GET', `/api/v1/file/${fileId}/multipart`, { token });
      assert.equal(listed.body.uploadId, uploadId);
      const part = await sign(fileId, { method: 'PUT', operation: 'uploadPart', uploadId, partNumber: 2 });
      assert.equal(part.status, 200, part.text);
      const url = new URL(part.body.url);
      assert.ok(!url.href.startsWith(server.baseUrl), 'a part goes to S3');
      assert.equal(url.searchParams.get('partNumber'), '2');
      assert.equal(url.searchParams.get('uploadId'), uploadId);
      assert.ok(url.pathname.includes(`/${fileId}`), "the file's own key");
      // Asked again (a retried first request): still the one upload.
      const again = await sign(fileId, create);
      const xml = await (await fetch(again.body.url, { method: 'POST' })).text();
      assert.ok(xml.includes(`<UploadId>${uploadId}</UploadId>`), xml);
    });

    it("refuses a part number out of 1..10000 or past the layout, and an upload that is not the file's", async () => {
      const { fileId, uploadId } = await start();
      for (const partNumber of [0, 10_001, 3]) {
        const signed = await sign(fileId, { method: 'PUT', operation: 'uploadPart', uploadId, partNumber });
        assert.equal(signed.status, 400, `${partNumber}: ${signed.text}`);
        assert.equal(signed.body.code, 'VALIDATION_FAILED');
      }
      const other = await start();
      for (const operation of ['listParts', 'completeMultipartUpload'] as const) {
        const method = operation === 'listParts' ? 'GET' : 'POST';
        const signed = await sign(fileId, { method, operation, uploadId: other.uploadId });
        assert.equal(signed.status, 404, signed.text);
        assert.equal(signed.body.code, 'UPLOAD_NOT_FOUND');
      }
      const missing = await sign(fileId, { method: 'GET', operation: 'listParts' });
      assert.equal(missing.status, 400, missing.text);
    });

    it("answers for another user's file as its sibling routes do", async () => {
      const { fileId } = await start();
      const stranger = await server.client.signup();
      const signed = await sign(fileId, create, stranger.token);
      const sibling = await server.client.call('POST', `/api/v1/file/${fileId}/multipart`, {
        token: stranger.token,
      });
      assert.ok(signed.status === 403 || signed.status === 404, signed.text);
      assert.equal(signed.status, sibling.status);
      assert.equal(signed.body.code, sibling.body.code);
    });

    it('an abort is done by Coffer: the upload and its parts go', async () => {
      const { fileId, uploadId } = await start();
      const signed = await sign(fileId, { method: 'DELETE', operation: 'abortMultipartUpload', uploadId });
      assert.equal(signed.status, 200, signed.text);
      const listed = await server.client.call('GET', `/api/v1/file/${fileId}/multipart`, { token });
      assert.equal(listed.status, 404, listed.text);
    });

    it("the completion link is Coffer's, refuses a tampered signature, and answers S3-shaped errors", async () => {
      const content = randomBytes(1000);
      const { fileId, uploadId } = await start(content.length);
      const part = await sign(fileId, { method: 'PUT', operation: 'uploadPart', uploadId, partNumber: 1 });
      const put = await fetch(part.body.url, { method: 'PUT', body: content });
      assert.equal(put.status, 200, await put.text());
      const signed = await sign(fileId, { method: 'POST', operation: 'completeMultipartUpload', uploadId });
      assert.equal(signed.status, 200, signed.text);
      assert.ok(signed.body.url.startsWith(server.baseUrl), 'completion goes through Coffer');
      const body = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${put.headers.get('etag')}</ETag></Part></CompleteMultipartUpload>`;
      const sig = /sig=([^&]+)$/.exec(signed.body.url)![1]!;
      const tampered = signed.body.url.replace(
        /sig=[^&]+$/,
        `sig=${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`,
      );
      const refused = await fetch(tampered, { method: 'POST', body });
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /<Error><Code>INVALID_SIGNATURE<\/Code>/);
      const wrongParts = await fetch(signed.body.url, { method: 'POST', body: '<CompleteMultipartUpload/>' });
      assert.equal(wrongParts.status, 400);
      assert.match(await wrongParts.text(), /<Error><Code>VALIDATION_FAILED<\/Code>/);
      const completed = await fetch(signed.body.url, { method: 'POST', body });
      const xml = await completed.text();
      assert.equal(completed.status, 200, xml);
      assert.equal(completed.headers.get('coffer-file-verified'), 'true');
      assert.match(xml, new RegExp(`<Key>${fileId}</Key>`));
      const file = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
      assert.equal(file.body.verified, true);
      assert.ok(Buffer.from(await (await fetch(file.body.url)).arrayBuffer()).equals(content));
    });
  });
});
