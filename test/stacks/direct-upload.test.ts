import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parseS3StorageUrl } from '../../src/blob-stores/s3-storage-url.ts';
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

  /** A new user's upload request declaring the length, type and SHA-256 of `content`. */
  const requestDeclaredUpload = async (filePath: string, content: string) => {
    const { token } = await server.client.signup();
    const checksumSha256 = createHash('sha256').update(content).digest('base64');
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: {
        filePath,
        contentLength: Buffer.byteLength(content),
        contentType: 'text/plain',
        checksumSha256,
      },
    });
    assert.equal(requested.status, 200, requested.text);
    return { token, checksumSha256, requested };
  };

  it('a new version goes straight to S3 under its own key; verify adopts it; the old link keeps the old bytes', async () => {
    const { token } = await server.client.signup();
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'notes/plan.txt', contentType: 'text/plain' },
    });
    const first = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: 'plan A',
      headers: { 'content-type': 'text/plain' },
    });
    const fileId = requested.body.fileId;
    const verified = await server.client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag: first.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const oldLink = (await server.client.call('GET', `/api/v1/file/${fileId}`, { token })).body.url;

    const version = await server.client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token,
      body: { contentType: 'text/plain', contentLength: 11 },
    });
    assert.equal(version.status, 200, version.text);
    assert.ok(!version.body.putFileUrl.startsWith(server.baseUrl), 'the link points at S3');
    assert.ok(
      new URL(version.body.putFileUrl).pathname.endsWith(`/${version.body.versionId}`),
      'its own key',
    );
    const put = await fetch(version.body.putFileUrl, {
      method: 'PUT',
      body: 'plan B, new',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200);
    const promoted = await server.client.call('POST', new URL(version.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.versionId, version.body.versionId);
    const now = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(await (await fetch(now.body.url)).text(), 'plan B, new');
    assert.equal(await (await fetch(oldLink)).text(), 'plan A');
  });

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

  // Issue 10, item 6: what the upload request declares is signed into the S3 URL, so the store
  // refuses a PUT that carries other values. s3rver (the S3 server of the tests) checks the
  // signature over them but not the body against x-amz-checksum-sha256, which AWS S3 and MinIO
  // do: this checks what the signature binds, and what verify records.
  it('declared length, type and SHA-256 are signed headers of the S3 upload URL', async () => {
    const content = 'exactly these bytes';
    const { token, checksumSha256, requested } = await requestDeclaredUpload('declared/notes.bin', content);
    const putUrl = new URL(requested.body.putFileUrl);
    assert.deepEqual(putUrl.searchParams.get('X-Amz-SignedHeaders')?.split(';'), [
      'content-length',
      'content-type',
      'host',
      'x-amz-checksum-sha256',
    ]);
    const headers = { 'content-type': 'text/plain', 'x-amz-checksum-sha256': checksumSha256 };
    const attempts = [
      { body: `${content}!`, headers }, // another length
      { body: content, headers: { ...headers, 'content-type': 'text/html' } },
      { body: content, headers: { 'content-type': 'text/plain' } }, // no checksum header
      {
        body: content,
        headers: { ...headers, 'x-amz-checksum-sha256': createHash('sha256').update('x').digest('base64') },
      },
    ];
    for (const attempt of attempts) {
      const refused = await fetch(putUrl, { method: 'PUT', ...attempt });
      assert.equal(refused.status, 403, `${JSON.stringify(attempt)}: the signature binds it`);
    }
    const put = await fetch(putUrl, { method: 'PUT', body: content, headers });
    assert.equal(put.status, 200, await put.clone().text());
    const verified = await server.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, checksumSha256);
    assert.equal(verified.body.meta.ContentType, 'text/plain');
  });

  // Issue 25, item 6: Ceph RGW 16 ignores x-amz-checksum-sha256 and stored other bytes of the
  // signed length (200), and verify answered 200 with the declared checksum. Whether or not the
  // store checks, verify must never record a checksum the bytes do not have.
  it('a declared SHA-256 holds at verify on a store that does not check bodies against it', async () => {
    const content = 'exactly these bytes';
    const { token, checksumSha256, requested } = await requestDeclaredUpload('declared/checked.txt', content);
    const { fileId } = requested.body;
    const verify = (etag: string | null | undefined) =>
      server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });
    const assertRefused = async (etag: string | null | undefined, what: string) => {
      const refused = await verify(etag);
      assert.equal(refused.status, 400, `${what}: ${refused.text}`);
      assert.equal(refused.body.code, 'CONTENT_MISMATCH');
      assert.match(refused.body.message, /checksum/);
    };
    const sameLength = 'other bytes, length';
    assert.equal(sameLength.length, content.length);

    // Through the signed URL, with the declared header: a store that checks refuses it (S3,
    // MinIO: 400 BadDigest); one that does not (s3rver, RGW 16) keeps it, and verify refuses.
    const headers = { 'content-type': 'text/plain', 'x-amz-checksum-sha256': checksumSha256 };
    const signed = await fetch(requested.body.putFileUrl, { method: 'PUT', body: sameLength, headers });
    if (signed.status === 200) await assertRefused(signed.headers.get('etag'), 'through the signed URL');
    else assert.equal(signed.status, 400, await signed.text());

    // Straight into the staging object with the store's own credentials and no checksum at all:
    // what any store that never checks would hold.
    const location = parseS3StorageUrl(server.services.config.storageUrl);
    const s3 = new S3Client({ region: location.region, endpoint: location.endpoint, forcePathStyle: true });
    try {
      const key = `${location.prefix ? `${location.prefix}/` : ''}${server.credentials.projectId}/${fileId}`;
      const put = await s3.send(
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: key,
          Body: sameLength,
          ContentType: 'text/plain',
        }),
      );
      await assertRefused(put.ETag, 'stored without a checksum');

      // Nothing of a refused adoption is kept, and the right bytes still verify.
      const right = await fetch(requested.body.putFileUrl, { method: 'PUT', body: content, headers });
      assert.equal(right.status, 200);
      const verified = await verify(right.headers.get('etag'));
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.meta.ChecksumSHA256, checksumSha256);
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: key }));
      assert.equal(listed.KeyCount, 1, JSON.stringify(listed.Contents?.map((object) => object.Key)));
    } finally {
      s3.destroy();
    }
  });

  it('a direct upload that takes its owner past a quota is refused at verify, and not counted', async () => {
    const project = await server.createProject('direct-quota');
    const { projectId } = project.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      userQuotaBytes: 10,
    });
    const { token, userId } = await project.signup();
    const requested = await project.call('POST', '/api/v1/file', { token, body: { filePath: 'big.bin' } });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: 'eleven byte',
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(put.status, 200);
    const verified = await project.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 413, verified.text);
    assert.equal(verified.body.code, 'QUOTA_EXCEEDED');
    const usage = await server.services.repositories.storageUsage.find({ projectId, userId });
    assert.deepEqual(usage.user, { files: 1, bytes: 0 });
  });
});
