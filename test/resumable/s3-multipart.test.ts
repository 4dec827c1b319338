import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { parseS3StorageUrl } from '../../src/blob-stores/s3-storage-url.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';

const MiB = 1024 * 1024;
/** The S3 store's part size (S3PartialStore's default, S3's smallest). */
const partBytes = 5 * MiB;
const onS3 = currentStackName() === 'pg-s3';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

type Started = {
  uploadId: string;
  partSize: number;
  expiresAt: number;
  parts: { partNumber: number; url: string }[];
};
type SentPart = { partNumber: number; etag: string };

/** Issue 20: a client sends a file's parts to S3 in parallel, and Coffer completes the upload. */
describe('parallel uploads straight to S3 (multipart)', {
  skip: onS3 ? false : 'needs S3: runs in the PostgreSQL + S3 pass',
}, () => {
  let server: TestServer;
  const clock = new ManualClock();
  let token: string;
  let userId: string;
  let s3: S3Client;
  let count = 0;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    ({ token, userId } = await server.client.signup());
    const location = parseS3StorageUrl(server.services.config.storageUrl);
    s3 = new S3Client({ region: location.region, endpoint: location.endpoint, forcePathStyle: true });
  });
  after(async () => {
    s3?.destroy();
    await server?.stop();
  });

  const requestUpload = async (content: Buffer, extra: Record<string, unknown> = {}) => {
    const answer = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `multipart/${count++}.bin`, contentLength: content.length, ...extra },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.fileId as string;
  };
  const multipart = (method: string, fileId: string, as = token) =>
    server.client.call(method, `/api/v1/file/${fileId}/multipart`, { token: as });
  const start = async (fileId: string): Promise<Started> => {
    const answer = await multipart('POST', fileId);
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  const complete = (fileId: string, parts: SentPart[], as = token) =>
    server.client.call('POST', `/api/v1/file/${fileId}/multipart/complete`, { token: as, body: { parts } });
  /** PUTs every part at once, each to its own presigned URL, with plain fetch. */
  const putParts = (started: Started, content: Buffer): Promise<SentPart[]> =>
    Promise.all(
      started.parts.map(async ({ partNumber, url }) => {
        const from = (partNumber - 1) * started.partSize;
        const body = content.subarray(from, from + started.partSize) as BodyInit;
        const put = await fetch(url, { method: 'PUT', body });
        assert.equal(put.status, 200, await put.text());
        return { partNumber, etag: put.headers.get('etag') ?? '' };
      }),
    );
  const multipartUploadsOf = async (fileId: string) => {
    const { bucket, prefix } = parseS3StorageUrl(server.services.config.storageUrl);
    const key = `${prefix}/${server.credentials.projectId}/${fileId}.`;
    const listed = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
    return listed.Uploads ?? [];
  };
  const verify = (fileId: string, etag: string) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });

  it('parts PUT in parallel to presigned URLs, listed, completed, verified and downloaded', async () => {
    const content = randomBytes(2 * partBytes + 12_345);
    const fileId = await requestUpload(content, {
      checksumSha256: sha256(content),
      contentType: 'video/mp4',
    });
    const started = await start(fileId);
    assert.equal(started.partSize, partBytes);
    assert.deepEqual(
      started.parts.map((part) => part.partNumber),
      [1, 2, 3],
    );
    assert.ok(started.expiresAt > clock.seconds);
    const url = new URL(started.parts[2]!.url);
    assert.ok(!url.href.startsWith(server.baseUrl), 'the URL points at S3, not at Coffer');
    assert.equal(url.searchParams.get('partNumber'), '3');
    assert.equal(url.searchParams.get('uploadId'), started.uploadId);
    assert.deepEqual(url.searchParams.get('X-Amz-SignedHeaders')?.split(';'), ['content-length', 'host']);

    const sent = await putParts(started, content);
    const listed = await multipart('GET', fileId);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.uploadId, started.uploadId);
    assert.deepEqual(
      listed.body.parts,
      sent.map(({ partNumber, etag }) => ({
        partNumber,
        size: Math.min(partBytes, content.length - (partNumber - 1) * partBytes),
        etag,
      })),
    );
    // Asked again (a client resuming after a reload): the same upload, fresh URLs.
    assert.equal((await start(fileId)).uploadId, started.uploadId);

    const completed = await complete(fileId, [...sent].reverse());
    assert.equal(completed.status, 200, completed.text);
    assert.match(completed.body.etag, /^".+"$/);
    assert.deepEqual(await multipartUploadsOf(fileId), []);
    const again = await complete(fileId, sent);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.etag, completed.body.etag, 'a repeated complete answers the same ETag');
    assert.equal((await multipart('GET', fileId)).body.code, 'UPLOAD_FINISHED');

    const verified = await verify(fileId, completed.body.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
    assert.equal(verified.body.meta.ContentLength, String(content.length));
    // The complete reads the parts back for the SHA-256: the CRC-32 comes with it (issue 40).
    const record = await server.services.repositories.files.findById(fileId);
    assert.equal(record?.contentCrc32, crc32(content));
    const file = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    const downloaded = Buffer.from(await (await fetch(file.body.url)).arrayBuffer());
    assert.ok(downloaded.equals(content), 'the download is the uploaded bytes');
    assert.equal((await multipart('POST', fileId)).body.code, 'ALREADY_VERIFIED');
  });

  it('S3 refuses a part of another length than its URL signs', async () => {
    const content = randomBytes(partBytes + 100);
    const fileId = await requestUpload(content);
    const [first, last] = (await start(fileId)).parts;
    const short = await fetch(first!.url, {
      method: 'PUT',
      body: content.subarray(0, partBytes - 1) as BodyInit,
    });
    assert.equal(short.status, 403, await short.text());
    const long = await fetch(last!.url, { method: 'PUT', body: content.subarray(partBytes - 1) as BodyInit });
    assert.equal(long.status, 403, await long.text());
    assert.deepEqual((await multipart('GET', fileId)).body.parts, []);
  });

  it('a wrong ETag or a missing part is refused and publishes nothing; the right ones complete', async () => {
    const content = randomBytes(1000);
    const fileId = await requestUpload(content);
    const started = await start(fileId);
    const [sent] = await putParts(started, content);
    const wrongEtag = await complete(fileId, [{ partNumber: 1, etag: '"0123456789abcdef0123456789abcdef"' }]);
    assert.equal(wrongEtag.status, 400, wrongEtag.text);
    assert.equal(wrongEtag.body.code, 'CONTENT_MISMATCH');
    assert.match(wrongEtag.body.message, /part 1/);
    const notTheLayout = await complete(fileId, [sent!, { partNumber: 2, etag: sent!.etag }]);
    assert.equal(notTheLayout.body.code, 'VALIDATION_FAILED');
    assert.equal((await verify(fileId, sent!.etag)).body.code, 'UPLOAD_MISSING', 'nothing was published');
    assert.equal((await multipartUploadsOf(fileId)).length, 1);

    const completed = await complete(fileId, [sent!]);
    assert.equal(completed.status, 200, completed.text);
    assert.equal((await verify(fileId, completed.body.etag)).status, 200);

    const unsent = await requestUpload(content);
    await start(unsent);
    const missing = await complete(unsent, [{ partNumber: 1, etag: sent!.etag }]);
    assert.equal(missing.body.code, 'CONTENT_MISMATCH');
    assert.match(missing.body.message, /never uploaded/);
  });

  it('a declared SHA-256 that the parts do not match: CONTENT_MISMATCH, and nothing readable', async () => {
    const content = randomBytes(5000);
    const fileId = await requestUpload(content, { checksumSha256: sha256(randomBytes(5000)) });
    const sent = await putParts(await start(fileId), content);
    const refused = await complete(fileId, sent);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'CONTENT_MISMATCH');
    assert.match(refused.body.message, /SHA-256/);
    const record = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(record.body.code, 'FILE_NOT_VERIFIED');
    assert.equal((await verify(fileId, sent[0]!.etag)).body.code, 'UPLOAD_MISSING');
    // The refused bytes ended the upload, as they end a tus upload.
    assert.equal((await multipart('GET', fileId)).body.code, 'UPLOAD_NOT_FOUND');
    assert.deepEqual(await multipartUploadsOf(fileId), []);
  });

  it('another user gets 403 as on the other file routes; an unknown file 404', async () => {
    const content = randomBytes(100);
    const fileId = await requestUpload(content, { permissionScope: '*' });
    const started = await start(fileId);
    const other = await server.client.signup();
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await multipart(method, fileId, other.token);
      assert.equal(answer.status, 403, `${method}: ${answer.text}`);
      assert.equal(answer.body.code, 'ACCESS_DENIED');
    }
    const theirs = await complete(fileId, [{ partNumber: 1, etag: '"x"' }], other.token);
    assert.equal(theirs.body.code, 'ACCESS_DENIED');
    assert.equal((await multipart('GET', 'NoSuchFile0000000000000')).body.code, 'FILE_NOT_FOUND');
    assert.equal((await start(fileId)).uploadId, started.uploadId, 'the upload is untouched');
  });

  it('needs a declared contentLength; two starts at once share one upload', async () => {
    const undeclared = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `multipart/${count++}.bin` },
    });
    const noLength = await multipart('POST', undeclared.body.fileId);
    assert.equal(noLength.status, 400, noLength.text);
    assert.match(noLength.body.message, /contentLength/);
    const fileId = await requestUpload(randomBytes(10));
    const [one, two] = await Promise.all([multipart('POST', fileId), multipart('POST', fileId)]);
    const statuses = [one.status, two.status];
    // The one that lost the race answers the winner's upload, or 423 while the winner holds it.
    assert.ok(
      statuses.includes(200) && statuses.every((status) => [200, 423].includes(status)),
      `${statuses}`,
    );
    if (one.status === 200 && two.status === 200) assert.equal(one.body.uploadId, two.body.uploadId);
    assert.equal((await multipartUploadsOf(fileId)).length, 1);
  });

  it('an empty file has no parts: completing with none publishes it', async () => {
    const fileId = await requestUpload(Buffer.alloc(0));
    const started = await start(fileId);
    assert.deepEqual(started.parts, []);
    const completed = await complete(fileId, []);
    assert.equal(completed.status, 200, completed.text);
    const verified = await verify(fileId, completed.body.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ContentLength, '0');
  });

  it('DELETE aborts: the parts go, and so do the record and its reservation', async () => {
    const content = randomBytes(700);
    const fileId = await requestUpload(content);
    await putParts(await start(fileId), content);
    const usage = () =>
      server.services.repositories.storageUsage.find({ projectId: server.credentials.projectId, userId });
    const before = (await usage()).user.bytes;
    const aborted = await multipart('DELETE', fileId);
    assert.equal(aborted.status, 204, aborted.text);
    assert.deepEqual(await multipartUploadsOf(fileId), []);
    assert.equal((await usage()).user.bytes, before - content.length);
    assert.equal(
      (await server.client.call('GET', `/api/v1/file/${fileId}`, { token })).body.code,
      'FILE_NOT_FOUND',
    );
  });

  it("an idle upload expires with the record's upload deadline, and is swept like a resumable one", async () => {
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `multipart/${count++}.bin`, contentLength: 10 },
    });
    const { fileId } = requested.body;
    const started = await start(fileId);
    assert.ok(started.expiresAt <= requested.body.expiresAt, 'never past the record waiting for it');
    try {
      clock.set(started.expiresAt + 1);
      assert.ok((await server.services.resumableUploads!.sweepExpired(100)) >= 1);
      assert.deepEqual(await multipartUploadsOf(fileId), []);
      assert.equal(await server.services.repositories.files.findById(fileId), undefined);
    } finally {
      clock.set(Math.floor(Date.now() / 1000));
    }
  });
});

describe('parallel uploads on a store without S3', {
  skip: onS3 ? 'runs on the embedded stack' : false,
}, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('every multipart route answers 400 VALIDATION_FAILED naming why', async () => {
    const { token } = await server.client.signup();
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'multipart/no-s3.bin', contentLength: 10 },
    });
    const url = `/api/v1/file/${requested.body.fileId}/multipart`;
    // S3's most parts: a body past the usual JSON limit, which completion takes.
    const etag = '"0123456789abcdef0123456789abcdef"';
    const everyPart = Array.from({ length: 10_000 }, (_, index) => ({ partNumber: index + 1, etag }));
    const calls = [
      server.client.call('POST', url, { token }),
      server.client.call('GET', url, { token }),
      server.client.call('POST', `${url}/complete`, { token, body: { parts: everyPart } }),
      server.client.call('DELETE', url, { token }),
    ];
    for (const answer of await Promise.all(calls)) {
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.code, 'VALIDATION_FAILED');
      assert.match(answer.body.message, /not S3/);
    }
  });
});
