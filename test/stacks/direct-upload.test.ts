import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

const skip = currentStackName() === 'pg-s3' ? false : 'needs S3: runs in the PostgreSQL + S3 pass';

/** COFFER_UPLOAD_MODE=direct: the upload link is an S3 presigned PUT (the original SDKs' way). */
describe('direct uploads to S3', { skip }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_UPLOAD_MODE: 'direct' });
  });
  after(() => server?.stop());

  it('PUT the raw file straight to S3 with its type, then verify and download', async () => {
    const { token } = await server.client.signup();
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'photos/cat.png' },
    });
    assert.equal(requested.status, 200, requested.text);
    const putUrl = new URL(requested.body.putFileUrl);
    assert.ok(!requested.body.putFileUrl.startsWith(server.baseUrl), 'the link points at S3, not at Coffer');
    assert.ok(putUrl.searchParams.get('X-Amz-Signature'));
    const wrongType = await fetch(putUrl, {
      method: 'PUT',
      body: 'meow',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(wrongType.status, 403, 'the content type is part of the signature');
    const put = await fetch(putUrl, {
      method: 'PUT',
      body: 'meow',
      headers: { 'content-type': 'image/png' },
    });
    assert.equal(put.status, 200);
    const verified = await server.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ContentType, 'image/png');
    const link = await server.client.call('GET', `/api/v1/file/${requested.body.fileId}`, { token });
    assert.equal(await (await fetch(link.body.url)).text(), 'meow');

    // The upload link is still valid: a PUT after verify reaches only the staging object,
    // never the bytes the verified record describes.
    const late = await fetch(putUrl, {
      method: 'PUT',
      body: 'late and longer',
      headers: { 'content-type': 'image/png' },
    });
    assert.equal(late.status, 200);
    const again = await server.client.call('GET', `/api/v1/file/${requested.body.fileId}`, { token });
    const download = await fetch(again.body.url);
    assert.equal(download.headers.get('content-length'), '4');
    assert.equal(await download.text(), 'meow');
  });
});
