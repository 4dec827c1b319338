import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Transform } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { parseS3StorageUrl, S3BlobStore } from '../../src/blob-stores/s3-blob-store.ts';
import { toAttachmentDisposition } from '../../src/domain/files/content-disposition.ts';
import { bodyOf, generatedBody, md5Of, quotedMd5, readAll } from '../support/byte-streams.ts';
import { s3ServersToTest, startRgw } from '../support/rgw-server.ts';
import type { S3TestServer } from '../support/s3-server.ts';
import { newKey, runBlobStoreContract } from './blob-store.contract.ts';
import { runBlobSweeperContract } from './blob-sweeper.contract.ts';

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

// Issue 25: a real S3 (Ceph's RADOS Gateway) beside s3rver, whose quirks our fixes paper over
// and whose signature check is our own: every test here runs against both. One cluster for the
// file (it takes seconds to start), a bucket of its own per suite; undefined (after a loud
// warning) when Ceph is not installed.
const rgw = await startRgw();
after(() => rgw?.stop());

for (const [serverName, startServer] of s3ServersToTest(rgw)) {
  const createS3Store = async () => {
    const server = await startServer();
    const store = storeFor(server);
    return { store, cleanup: () => store.close().then(() => server.stop()) };
  };
  runBlobStoreContract(`S3BlobStore (${serverName})`, createS3Store, { etagScheme: 'md5' });
  runBlobSweeperContract(`S3BlobStore (${serverName})`, createS3Store);
  describeS3BlobStore(serverName, startServer);
}

function describeS3BlobStore(serverName: string, startServer: () => Promise<S3TestServer>): void {
  describe(`S3BlobStore against ${serverName}`, () => {
    let server: S3TestServer;
    let store: S3BlobStore;
    before(async () => {
      server = await startServer();
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
      const client = clientFor(server);
      const pendingUploads = async () =>
        (await client.send(new ListMultipartUploadsCommand({ Bucket: server.bucket }))).Uploads ?? [];
      // Past two 5 MiB parts before failing, so Upload has started a multipart upload each time.
      const failing = generatedBody(16 * MiB, { failAtBytes: 11 * MiB });
      const key = newKey();
      await assert.rejects(
        store.put(key, failing.body, { contentType: 'a/b', maxBytes: 32 * MiB }),
        /mid-way/,
      );
      const oversized = generatedBody(16 * MiB);
      await assert.rejects(store.put(key, oversized.body, { contentType: 'a/b', maxBytes: 11 * MiB }), {
        code: 'FILE_TOO_LARGE',
      });
      const controller = new AbortController();
      const aborted = generatedBody(16 * MiB, {
        onProgress: (sent) => sent >= 11 * MiB && controller.abort(),
      });
      const signal = controller.signal;
      await assert.rejects(store.put(key, aborted.body, { contentType: 'a/b', maxBytes: 32 * MiB, signal }), {
        name: 'AbortError',
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: key }));
      assert.deepEqual(listed.Contents ?? [], []);
      assert.deepEqual(await pendingUploads(), []);
      client.destroy();
    });

    it('puts a body of announced length as one streamed PutObject, tagged with the MD5 of the whole', async () => {
      const key = newKey();
      const generated = generatedBody(12 * MiB);
      const info = await store.put(key, generated.body, {
        contentType: 'a/b',
        maxBytes: 16 * MiB,
        sizeBytes: 12 * MiB,
      });
      // One part: the MD5 of every byte, where a multipart upload of these bytes ends "-3".
      assert.equal(info.etag, generated.etag('md5'));
      assert.equal(info.sizeBytes, 12 * MiB);
      assert.deepEqual(await md5Of((await store.get(key, info.version))!.body), {
        etag: generated.etag('md5'),
        sizeBytes: 12 * MiB,
      });
    });

    // s3rver (the stand-in where Ceph is not installed) races its own write of a cut-off body
    // against the fix that removes it (s3rver-fixes.ts): it kept 9 of 12 MiB in a run on a
    // busy machine. What S3 keeps is asserted against Ceph RGW, which .ci/run installs.
    const s3rverKeepsCutBodies =
      serverName === 's3rver' && 's3rver may keep a cut-off body: asserted on Ceph RGW';
    it('leaves no object when a body of announced length fails, is short, runs long, fails at its end or is aborted', {
      skip: s3rverKeepsCutBodies,
    }, async () => {
      const client = clientFor(server);
      const key = newKey();
      const announced = { contentType: 'a/b', maxBytes: 32 * MiB, sizeBytes: 12 * MiB };
      const failing = generatedBody(12 * MiB, { failAtBytes: 11 * MiB });
      await assert.rejects(store.put(key, failing.body, announced), /mid-way/);
      await assert.rejects(store.put(key, generatedBody(11 * MiB).body, announced), {
        code: 'CONTENT_MISMATCH',
      });
      await assert.rejects(store.put(key, generatedBody(13 * MiB).body, announced), {
        code: 'CONTENT_MISMATCH',
      });
      // Every byte, then a check before the store refuses them at the end (a declared checksum
      // that differs, a scanner): S3 must not have been given the last of them.
      const refusedAtEnd = new Transform({
        transform: (chunk, _encoding, callback) => callback(null, chunk),
        flush: (callback) => callback(new Error('refused at the end')),
      });
      await assert.rejects(
        store.put(key, generatedBody(12 * MiB).body.pipe(refusedAtEnd), announced),
        /refused at the end/,
      );
      const controller = new AbortController();
      const aborted = generatedBody(12 * MiB, {
        onProgress: (sent) => sent >= 11 * MiB && controller.abort(),
      });
      await assert.rejects(store.put(key, aborted.body, { ...announced, signal: controller.signal }), {
        name: 'AbortError',
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: key }));
      assert.deepEqual(listed.Contents ?? [], []);
      const pending = await client.send(
        new ListMultipartUploadsCommand({ Bucket: server.bucket, Prefix: key }),
      );
      assert.deepEqual(pending.Uploads ?? [], []);
      client.destroy();
    });

    it('returns the ETag S3 gives a multipart object', async () => {
      const key = newKey();
      const info = await store.put(key, generatedBody(12 * MiB).body, {
        contentType: 'a/b',
        maxBytes: 12 * MiB,
      });
      // S3 answers "<md5 of the part md5s>-<parts>"; s3rver the MD5 of the whole. Ceph RGW
      // (Pacific) completes the upload with an empty <ETag/>: the store asks the object.
      assert.match(info.etag, /^"[0-9a-f]{32}(-3)?"$/);
      assert.equal((await store.head(key, info.version))?.sizeBytes, 12 * MiB);
      const client = clientFor(server);
      const Key = `${key}.${info.version}`;
      assert.equal(
        (await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key }))).ETag,
        info.etag,
      );
      client.destroy();
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
      await assert.rejects(unreachable.get(newKey(), 'abcdef0123456789abcdef01'), { code: 'UNAVAILABLE' });
      await assert.rejects(unreachable.put(newKey(), bodyOf('x'), { contentType: 'a/b', maxBytes: MiB }), {
        code: 'UNAVAILABLE',
      });
      await unreachable.close();
    });

    it("reads its object, and answers a refused read with S3's error, never a body", async () => {
      const key = newKey();
      const { version } = await store.put(key, bodyOf('signed here'), {
        contentType: 'text/plain',
        maxBytes: MiB,
      });
      assert.equal((await readAll((await store.get(key, version))!.body)).toString(), 'signed here');
      const wrongSecret = new S3BlobStore({
        ...parseS3StorageUrl(server.storageUrl),
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: 'not-the-secret' },
      });
      const refused = await wrongSecret.get(key, version).then(
        (got) => assert.fail(`a body of ${got?.info.sizeBytes} bytes`),
        (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => error,
      );
      assert.equal(refused.$metadata?.httpStatusCode, 403, String(refused.name));
      await wrongSecret.close();
    });

    it('passes check() against a reachable bucket, leaving no probe object behind', async () => {
      const client = clientFor(server);
      const before = await client.send(new ListObjectsV2Command({ Bucket: server.bucket }));
      await store.check();
      const after = await client.send(new ListObjectsV2Command({ Bucket: server.bucket }));
      assert.deepEqual(
        after.Contents?.map((object) => object.Key),
        before.Contents?.map((object) => object.Key),
      );
      client.destroy();
    });

    it('lists only its own objects: versions and staging objects under its prefix', async () => {
      const client = clientFor(server);
      const prefixed = storeFor(server, 'tenant-gc');
      const key = newKey();
      const stored = await prefixed.put(key, bodyOf('mine'), { contentType: 'text/plain', maxBytes: MiB });
      const foreign = [
        'tenant-gc/readme.txt',
        `tenant-gc/${key.split('/')[0]}/three/segments`,
        `tenant-gc/${key}.not-a-version`,
        `other/${key}.${stored.version}`,
      ];
      for (const Key of [`tenant-gc/${key}`, ...foreign]) {
        await client.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: 'x' }));
      }
      const listed = [];
      // One page: s3rver repeats a key across pages when a staging key and its versions meet.
      for await (const page of prefixed.listObjects({ pageSize: 100 })) listed.push(...page);
      assert.deepEqual(listed.map((object) => [object.key, object.version]).sort(), [
        [key, undefined],
        [key, stored.version],
      ]);
      await prefixed.deleteStaging(key);
      await prefixed.deleteStaging(key);
      const left = await client.send(
        new ListObjectsV2Command({ Bucket: server.bucket, Prefix: 'tenant-gc/' }),
      );
      assert.equal(
        left.Contents?.some((object) => object.Key === `tenant-gc/${key}`),
        false,
      );
      await prefixed.close();
      client.destroy();
    });

    it('lists multipart uploads started before the cut-off as unfinished, and aborts them', async () => {
      const client = clientFor(server);
      const prefixed = storeFor(server, 'tenant-mp');
      const Key = `tenant-mp/${newKey()}.abcdef0123456789abcdef01`;
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({ Bucket: server.bucket, Key }),
      );
      await client.send(
        new CreateMultipartUploadCommand({
          Bucket: server.bucket,
          Key: `elsewhere/${newKey()}.abcdef0123456789abcdef01`,
        }),
      );
      const unfinished = async (startedBefore: Date) => {
        const writes = [];
        for await (const page of prefixed.listUnfinishedWrites({ startedBefore, pageSize: 10 }))
          writes.push(...page);
        return writes;
      };
      assert.deepEqual(
        await unfinished(new Date(Date.now() - 60_000)),
        [],
        'too recent: may still be running',
      );
      const [write, ...others] = await unfinished(new Date(Date.now() + 60_000));
      assert.deepEqual(others, []);
      assert.equal(write?.kind, 'multipart-upload');
      assert.deepEqual(write?.kind === 'multipart-upload' && [write.objectKey, write.uploadId], [
        Key,
        UploadId,
      ]);
      await prefixed.removeUnfinishedWrite(write!);
      await prefixed.removeUnfinishedWrite(write!);
      assert.deepEqual(await unfinished(new Date(Date.now() + 60_000)), []);
      await prefixed.close();
      client.destroy();
    });
  });
}

function clientFor(server: S3TestServer): S3Client {
  const { accessKeyId, secretAccessKey } = server;
  const credentials = { accessKeyId, secretAccessKey };
  return new S3Client({ region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials });
}

/** A loopback port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
