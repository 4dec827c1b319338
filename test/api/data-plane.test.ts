import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { expectedEtag, isStackOnS3, quotedMd5 } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

describe('data plane: signed links, PUT styles, downloads', () => {
  let server: TestServer;
  let token: string;
  const request = async (filePath: string) => {
    const response = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(response.status, 200, response.text);
    return response.body as {
      fileId: string;
      putFileUrl: string;
      postVerifyUploadUrl: string;
      expiresAt: number;
    };
  };
  const verify = (fileId: string, etag: string | null) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });

  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server.stop());

  it('multipart PUT stores only the data part, with its content type', async () => {
    const upload = await request('pics/photo.png');
    assert.match(upload.putFileUrl, /^http:\/\/127\.0\.0\.1:\d+\/blob\/v1\/files\//);
    assert.equal(upload.postVerifyUploadUrl, `${server.baseUrl}/api/v1/file/${upload.fileId}/verify`);
    const form = new FormData();
    form.append('note', 'a field before the file');
    form.append('data', new Blob(['PNG bytes'], { type: 'image/png' }), 'photo.png');
    form.append('after', 'a field after the file');
    const put = await fetch(upload.putFileUrl, {
      method: 'PUT',
      body: form,
      headers: { origin: 'https://app.example.com' },
    });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('etag'), expectedEtag('PNG bytes'));
    assert.equal(put.headers.get('access-control-allow-origin'), '*');
    assert.match(put.headers.get('access-control-expose-headers') ?? '', /ETag/);
    const verified = await verify(upload.fileId, put.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ContentType, 'image/png');
    assert.equal(verified.body.meta.ContentLength, '9');
    assert.match(verified.body.meta.LastModified, /^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    assert.equal(verified.body.etag, expectedEtag('PNG bytes'));
    assert.equal(verified.body.verified, true);
    assert.equal(verified.body.__v, 1);
  });

  it('a multipart form without a data part is refused', async () => {
    const upload = await request('nodata.txt');
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const put = await fetch(upload.putFileUrl, { method: 'PUT', body: form });
    assert.equal(put.status, 400);
    assert.equal((await put.json()).code, 'VALIDATION_FAILED');
  });

  it('raw PUT records the Content-Type header, falling back to the extension', async () => {
    const typed = await request('raw/typed.bin');
    const put = await fetch(typed.putFileUrl, {
      method: 'PUT',
      body: 'raw bytes',
      headers: { 'content-type': 'application/x-custom' },
    });
    assert.equal(put.status, 200);
    assert.equal(
      (await verify(typed.fileId, put.headers.get('etag'))).body.meta.ContentType,
      'application/x-custom',
    );
    const untyped = await request('raw/page.html');
    const put2 = await fetch(untyped.putFileUrl, { method: 'PUT', body: new Uint8Array([60, 104, 49, 62]) });
    assert.equal(put2.status, 200);
    assert.equal((await verify(untyped.fileId, put2.headers.get('etag'))).body.meta.ContentType, 'text/html');
  });

  it('on the local disk, the PUT ETag is the first 128 bits of the SHA-256 the record keeps as its checksum', {
    skip: isStackOnS3() && 'S3 answers its own ETag',
  }, async () => {
    // Over several of the hashing thread's 1 MiB batches, at odd edges: one digest per byte.
    const content = randomBytes(3 * 1024 * 1024 + 5);
    const sha256 = createHash('sha256').update(content).digest();
    const upload = await request('digests/once.bin');
    const put = await fetch(upload.putFileUrl, { method: 'PUT', body: content });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('etag'), `"${sha256.subarray(0, 16).toString('hex')}"`);
    const verified = await verify(upload.fileId, put.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.etag, put.headers.get('etag'));
    assert.equal(verified.body.meta.ChecksumSHA256, sha256.toString('base64'));
  });

  it('a record verified with an MD5 ETag (before the local stores tagged with SHA-256) still serves by it', async () => {
    const content = 'verified in the MD5 days';
    const upload = await request('digests/md5-era.txt');
    assert.equal((await fetch(upload.putFileUrl, { method: 'PUT', body: content })).status, 200);
    // The record as the earlier server wrote it: nothing recomputes a stored tag.
    const files = server.services.repositories.files;
    const pending = (await files.findById(upload.fileId))?.pendingUpload;
    assert.ok(pending);
    const oldEtag = quotedMd5(content);
    const { blobVersion, sizeBytes, contentType, lastModified, checksumSha256 } = pending;
    const marked = await files.markVerified(
      upload.fileId,
      {
        blobVersion,
        etag: oldEtag,
        content: { sizeBytes, contentType, lastModified, checksumSha256 },
        pendingVersion: blobVersion,
      },
      new Date(),
    );
    assert.equal(marked?.etag, oldEtag);
    const again = await verify(upload.fileId, oldEtag);
    assert.equal(again.status, 200, 'a repeated verify with the stored tag answers the record');
    const url: string = (await server.client.call('GET', `/api/v1/file/${upload.fileId}`, { token })).body
      .url;
    const full = await fetch(url);
    assert.equal(await full.text(), content);
    assert.equal(full.headers.get('etag'), oldEtag);
    const notModified = await fetch(url, { headers: { 'if-none-match': oldEtag } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('etag'), oldEtag);
    const ranged = await fetch(url, { headers: { range: 'bytes=0-7', 'if-range': oldEtag } });
    assert.equal(ranged.status, 206);
    assert.equal(await ranged.text(), 'verified');
  });

  it('a re-PUT before verify replaces the content; after verify it is refused and nothing changes', async () => {
    const upload = await request('replace.txt');
    await fetch(upload.putFileUrl, { method: 'PUT', body: 'first' });
    const second = await fetch(upload.putFileUrl, { method: 'PUT', body: 'second' });
    assert.equal((await verify(upload.fileId, expectedEtag('first'))).body.code, 'ETAG_MISMATCH');
    const verified = await verify(upload.fileId, second.headers.get('etag'));
    assert.equal(verified.status, 200);
    const third = await fetch(upload.putFileUrl, { method: 'PUT', body: 'third' });
    assert.equal(third.status, 409);
    assert.equal((await third.json()).code, 'ALREADY_VERIFIED');
    const again = await verify(upload.fileId, second.headers.get('etag'));
    assert.equal(again.status, 200, 'a repeated verify answers the same record');
    assert.deepEqual(again.body, verified.body);
    const link = await server.client.call('GET', `/api/v1/file/${upload.fileId}`, { token });
    assert.equal(await (await fetch(link.body.url)).text(), 'second');
  });

  it('download: headers, HEAD, ranges, conditional GET', async () => {
    const content = '0123456789abcdef';
    const record = await server.client.uploadFile(token, 'dl/Résumé "final".txt', content, {
      contentType: 'text/plain',
    });
    const before = Math.floor(Date.now() / 1000);
    const meta = await server.client.call('GET', `/api/v1/file/${record._id}`, { token });
    assert.equal(meta.status, 200);
    assert.ok(meta.body.expiresAt >= before + 899 && meta.body.expiresAt <= before + 901, 'default 900 s');
    const url: string = meta.body.url;
    const full = await fetch(url);
    assert.equal(full.status, 200);
    assert.equal(await full.text(), content);
    assert.equal(full.headers.get('content-type'), 'text/plain');
    assert.equal(full.headers.get('content-length'), '16');
    assert.equal(full.headers.get('etag'), expectedEtag(content));
    assert.equal(full.headers.get('last-modified'), meta.body.meta.LastModified);
    assert.equal(full.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(full.headers.get('access-control-allow-origin'), '*');
    assert.equal(
      full.headers.get('content-disposition'),
      `attachment; filename="R_sum_ _final_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.txt`,
    );
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '16');
    assert.equal(await head.text(), '');
    const cases: Array<[string, number, string | undefined, string | undefined]> = [
      ['bytes=0-3', 206, '0123', 'bytes 0-3/16'],
      ['bytes=10-', 206, 'abcdef', 'bytes 10-15/16'],
      ['bytes=-2', 206, 'ef', 'bytes 14-15/16'],
      ['bytes=15-99', 206, 'f', 'bytes 15-15/16'],
      ['bytes=16-20', 416, undefined, 'bytes */16'],
      ['bytes=0-1,4-5', 200, content, undefined],
    ];
    for (const [range, status, body, contentRange] of cases) {
      const response = await fetch(url, { headers: { range } });
      assert.equal(response.status, status, range);
      const text = await response.text();
      if (body !== undefined) assert.equal(text, body, range);
      assert.equal(response.headers.get('content-range') ?? undefined, contentRange, range);
    }
    // A 416 is an error like any other: the JSON shape, not the file's type or name.
    const unsatisfiable = await fetch(url, { headers: { range: 'bytes=16-' } });
    assert.equal(unsatisfiable.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(unsatisfiable.headers.get('content-disposition'), null);
    assert.deepEqual(await unsatisfiable.json(), {
      statusCode: 416,
      error: 'Range Not Satisfiable',
      code: 'RANGE_NOT_SATISFIABLE',
      message: 'The range starts past the end of the content (16 bytes)',
    });
    const notModified = await fetch(url, { headers: { 'if-none-match': expectedEtag(content) } });
    assert.equal(notModified.status, 304);
  });

  it('conditional requests as RFC 9110 reads them: weak tags, lists, dates, If-Range', async () => {
    const content = 'conditional bytes';
    const record = await server.client.uploadFile(token, 'dl/conditional.txt', content);
    const meta = await server.client.call('GET', `/api/v1/file/${record._id}`, { token });
    const url: string = meta.body.url;
    const etag = expectedEtag(content);
    const lastModified: string = meta.body.meta.LastModified;
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const cases: Array<[string, Record<string, string>, number, string | undefined]> = [
      // §13.1.2: If-None-Match compares weakly, takes a list and `*`, and outranks the date.
      ['weak tag', { 'if-none-match': `W/${etag}` }, 304, undefined],
      ['a list naming it', { 'if-none-match': `"other", ${etag}` }, 304, undefined],
      ['any tag', { 'if-none-match': '*' }, 304, undefined],
      ['another tag', { 'if-none-match': '"other"' }, 200, content],
      [
        'another tag outranks a current date',
        { 'if-none-match': '"other"', 'if-modified-since': later },
        200,
        content,
      ],
      // §13.1.3: If-Modified-Since.
      ['not modified since a later date', { 'if-modified-since': later }, 304, undefined],
      ['not modified since its own date', { 'if-modified-since': lastModified }, 304, undefined],
      ['modified since an earlier date', { 'if-modified-since': earlier }, 200, content],
      ['an unreadable date is ignored', { 'if-modified-since': 'yesterday' }, 200, content],
      // §13.1.5: If-Range keeps the Range only while it names this content (tags compared strongly).
      ['If-Range with its tag', { range: 'bytes=0-3', 'if-range': etag }, 206, 'cond'],
      ['If-Range with its date', { range: 'bytes=0-3', 'if-range': lastModified }, 206, 'cond'],
      ['If-Range with another tag', { range: 'bytes=0-3', 'if-range': '"other"' }, 200, content],
      ['If-Range with a weak tag', { range: 'bytes=0-3', 'if-range': `W/${etag}` }, 200, content],
      ['If-Range with another date', { range: 'bytes=0-3', 'if-range': earlier }, 200, content],
    ];
    for (const [name, headers, status, body] of cases) {
      const response = await fetch(url, { headers });
      assert.equal(response.status, status, name);
      const text = await response.text();
      if (body !== undefined) assert.equal(text, body, name);
      if (status === 304) assert.equal(response.headers.get('etag'), etag, name);
    }
  });

  it('a link past its expiry is LINK_EXPIRED; expiresInSeconds sets it', async () => {
    const record = await server.client.uploadFile(token, 'expiring.txt', 'soon gone');
    const meta = await server.client.call('GET', `/api/v1/file/${record._id}?expiresInSeconds=1`, { token });
    const now = Math.floor(Date.now() / 1000);
    assert.ok(meta.body.expiresAt <= now + 1);
    assert.equal((await fetch(meta.body.url)).status, 200);
    await new Promise((resolve) =>
      setTimeout(resolve, (meta.body.expiresAt - Date.now() / 1000 + 1.1) * 1000),
    );
    const expired = await fetch(meta.body.url);
    assert.equal(expired.status, 403);
    assert.equal((await expired.json()).code, 'LINK_EXPIRED');
  });

  it('preflights for PUT and GET are answered for any origin', async () => {
    const upload = await request('preflight.txt');
    const preflight = await fetch(upload.putFileUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /PUT/);
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type');
  });

  it('an interrupted upload leaves nothing behind', async () => {
    const upload = await request('interrupted.bin');
    const controller = new AbortController();
    const body = new ReadableStream({
      start(stream) {
        stream.enqueue(new Uint8Array(64 * 1024));
        setTimeout(() => controller.abort(), 100);
      },
    });
    await assert.rejects(
      fetch(upload.putFileUrl, {
        method: 'PUT',
        body,
        signal: controller.signal,
        duplex: 'half',
      } as RequestInit),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await verify(upload.fileId, expectedEtag(''))).body.code, 'UPLOAD_MISSING');
  });

  it('link signatures never reach the log', async () => {
    const { redactUrl } = await import('../../src/app.ts');
    assert.equal(redactUrl('/blob/v1/files/abc?exp=1&kid=k&sig=SECRET'), '/blob/v1/files/abc?[redacted]');
    assert.equal(
      redactUrl('/api/v1/file/x?expiresInSeconds=60&token=SECRET'),
      '/api/v1/file/x?expiresInSeconds=60&token=[redacted]',
    );
  });
});
