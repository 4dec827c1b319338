import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { parseS3StorageUrl, S3BlobStore } from '../../src/blob-stores/s3-blob-store.ts';
import { toAttachmentDisposition } from '../../src/domain/files/content-disposition.ts';
import { bodyOf, generatedBody, quotedMd5, readAll } from '../support/byte-streams.ts';
import { type S3TestServer, startS3Server } from '../support/s3-server.ts';
import { newKey, runBlobStoreContract } from './blob-store.contract.ts';

const MiB = 1024 * 1024;

function storeFor(server: S3TestServer, prefix?: string): S3BlobStore {
  const { accessKeyId, secretAccessKey } = server;
  const location = parseS3StorageUrl(server.storageUrl);
  return new S3BlobStore({
    ...location,
    ...(prefix && { prefix }),
    credentials: { accessKeyId, secretAccessKey },
  });
}

runBlobStoreContract('S3BlobStore (s3rver)', async () => {
  const server = await startS3Server();
  const store = storeFor(server);
  return { store, cleanup: () => store.close().then(() => server.stop()) };
});

describe('S3BlobStore against s3rver', () => {
  let server: S3TestServer;
  let store: S3BlobStore;
  before(async () => {
    server = await startS3Server();
    store = storeFor(server);
  });
  after(async () => {
    await store.close();
    await server.stop();
  });

  it('presigns a GET that serves the bytes with the requested Content-Disposition and Content-Type', async () => {
    const key = newKey();
    const { version } = await store.put(key, bodyOf('report bytes'), {
      contentType: 'application/octet-stream',
      maxBytes: MiB,
    });
    const fileName = 'Résumé "final".txt';
    const url = await store.presignDownload(key, version, {
      expiresInSeconds: 60,
      fileName,
      contentType: 'text/plain; charset=utf-8',
    });
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'report bytes');
    assert.equal(response.headers.get('content-disposition'), toAttachmentDisposition(fileName));
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    // The overrides are signed: relabelling the link breaks it.
    const relabelled = new URL(url);
    relabelled.searchParams.set('response-content-type', 'text/html');
    assert.equal((await fetch(relabelled)).status, 403);
  });

  it('presigns a PUT bound to its content type, to a staging object verify adopts by ETag', async () => {
    const key = newKey();
    const url = await store.presignUpload(key, { expiresInSeconds: 60, contentType: 'image/png' });
    assert.match(new URL(url).searchParams.get('X-Amz-SignedHeaders') ?? '', /content-type/);
    const wrongType = await fetch(url, {
      method: 'PUT',
      body: 'png?',
      headers: { 'content-type': 'text/html' },
    });
    assert.equal(wrongType.status, 403);
    const response = await fetch(url, {
      method: 'PUT',
      body: 'png bytes',
      headers: { 'content-type': 'image/png' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('etag'), quotedMd5('png bytes'));
    await assert.rejects(store.adoptDirectUpload(key, quotedMd5('other bytes')), { code: 'ETAG_MISMATCH' });
    const adopted = await store.adoptDirectUpload(key, quotedMd5('png bytes'));
    assert.equal(adopted?.sizeBytes, 'png bytes'.length);
    assert.equal(adopted?.etag, quotedMd5('png bytes'));
    assert.equal((await readAll((await store.get(key, adopted!.version))!.body)).toString(), 'png bytes');
    // The staging object is gone: a second adoption finds nothing, and a later PUT to the same
    // link (still valid) cannot reach the adopted version.
    assert.equal(await store.adoptDirectUpload(key, quotedMd5('png bytes')), undefined);
    await fetch(url, { method: 'PUT', body: 'late bytes', headers: { 'content-type': 'image/png' } });
    assert.equal((await readAll((await store.get(key, adopted!.version))!.body)).toString(), 'png bytes');
  });

  it('leaves no object and no pending multipart upload when a multipart upload fails', async () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    const pendingUploads = async () =>
      (await client.send(new ListMultipartUploadsCommand({ Bucket: server.bucket }))).Uploads ?? [];
    // Past two 5 MiB parts before failing, so Upload has started a multipart upload each time.
    const failing = generatedBody(16 * MiB, { failAtBytes: 11 * MiB });
    const key = newKey();
    await assert.rejects(store.put(key, failing.body, { contentType: 'a/b', maxBytes: 32 * MiB }), /mid-way/);
    const oversized = generatedBody(16 * MiB);
    await assert.rejects(store.put(key, oversized.body, { contentType: 'a/b', maxBytes: 11 * MiB }), {
      code: 'FILE_TOO_LARGE',
    });
    const controller = new AbortController();
    const aborted = generatedBody(16 * MiB, { onProgress: (sent) => sent >= 11 * MiB && controller.abort() });
    const signal = controller.signal;
    await assert.rejects(store.put(key, aborted.body, { contentType: 'a/b', maxBytes: 32 * MiB, signal }), {
      name: 'AbortError',
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: key }));
    assert.deepEqual(listed.Contents ?? [], []);
    assert.deepEqual(await pendingUploads(), []);
    client.destroy();
  });

  it('returns the ETag S3 gives a multipart object', async () => {
    const key = newKey();
    const info = await store.put(key, generatedBody(12 * MiB).body, {
      contentType: 'a/b',
      maxBytes: 12 * MiB,
    });
    // S3 answers "<md5 of the part md5s>-<parts>"; s3rver the MD5 of the whole.
    assert.match(info.etag, /^"[0-9a-f]{32}(-3)?"$/);
    assert.equal((await store.head(key, info.version))?.sizeBytes, 12 * MiB);
  });

  it('keeps keys under its prefix', async () => {
    const key = newKey();
    const prefixed = storeFor(server, 'tenant-a');
    const { version } = await prefixed.put(key, bodyOf('scoped'), {
      contentType: 'text/plain',
      maxBytes: MiB,
    });
    assert.equal((await readAll((await store.get(`tenant-a/${key}`, version))!.body)).toString(), 'scoped');
    assert.equal(await store.head(key, version), undefined);
    await prefixed.close();
  });

  it('answers UNAVAILABLE when the endpoint does not answer', async () => {
    const port = await closedPort();
    const endpoint = `http://127.0.0.1:${port}`;
    const unreachable = new S3BlobStore({
      ...parseS3StorageUrl(`${server.storageUrl.split('?')[0]}?endpoint=${endpoint}&forcePathStyle=true`),
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await assert.rejects(unreachable.check(), { code: 'UNAVAILABLE' });
    await assert.rejects(unreachable.head(newKey(), 'abcdef0123456789abcdef01'), { code: 'UNAVAILABLE' });
    await assert.rejects(unreachable.put(newKey(), bodyOf('x'), { contentType: 'a/b', maxBytes: MiB }), {
      code: 'UNAVAILABLE',
    });
    await unreachable.close();
  });

  it('passes check() against a reachable bucket', async () => {
    await store.check();
  });
});

/** A loopback port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
