import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand, ListObjectsV2Command, ListPartsCommand } from '@aws-sdk/client-s3';
import { newBlobVersion } from '../../src/blob-stores/blob-key.ts';
import { parseS3StorageUrl, S3BlobStore } from '../../src/blob-stores/s3-blob-store.ts';
import { S3PartialStore } from '../../src/blob-stores/s3-partial-store.ts';
import type { PartialBlob } from '../../src/domain/resumable/partial-blob-store.ts';
import { bodyOf, md5Of } from '../support/byte-streams.ts';
import { s3ServersToTest, startRgw } from '../support/rgw-server.ts';
import type { S3TestServer } from '../support/s3-server.ts';
import { newKey } from './blob-store.contract.ts';
import { runPartialBlobStoreContract } from './partial-blob-store.contract.ts';

const MiB = 1024 * 1024;

function blobStoreFor(server: S3TestServer, endpoint?: string): S3BlobStore {
  const { accessKeyId, secretAccessKey } = server;
  const url = endpoint
    ? `${server.storageUrl.split('?')[0]}?endpoint=${endpoint}&forcePathStyle=true`
    : server.storageUrl;
  return new S3BlobStore({ ...parseS3StorageUrl(url), credentials: { accessKeyId, secretAccessKey } });
}

/** Parts, tails and multipart uploads the bucket holds for an upload (its version object aside). */
async function leftoversOf(blobs: S3BlobStore, blob: PartialBlob): Promise<string[]> {
  const { client, bucket } = blobs.area;
  const versionKey = `${blob.key}.${blob.version}`;
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: versionKey }));
  const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${versionKey}.` }));
  return [
    ...(uploads.Uploads ?? [])
      .filter((upload) => upload.Key === versionKey)
      .map((upload) => `upload ${upload.UploadId}`),
    ...(objects.Contents ?? []).map((object) => `object ${object.Key}`),
  ];
}

// One RGW for the file (it takes seconds to start), a bucket of its own per suite; undefined
// (after a loud warning) when Ceph is not installed.
const rgw = await startRgw();
after(() => rgw?.stop());

for (const [serverName, startServer] of s3ServersToTest(rgw)) {
  const create = async () => {
    const server = await startServer();
    const blobs = blobStoreFor(server);
    const partials = new S3PartialStore({ ...blobs.area, partSizeBytes: 5 * MiB });
    const cleanup = () => blobs.close().then(() => server.stop());
    return {
      partials,
      blobs,
      server,
      tagsWithSha256: false,
      leftovers: (blob: PartialBlob) => leftoversOf(blobs, blob),
      cleanup,
    };
  };
  runPartialBlobStoreContract(`S3PartialStore (${serverName})`, create);
  describeS3PartialStore(serverName, create);
}

function describeS3PartialStore(
  serverName: string,
  create: () => Promise<{ blobs: S3BlobStore; server: S3TestServer; cleanup(): Promise<void> }>,
): void {
  describe(`S3PartialStore against ${serverName}`, () => {
    let blobs: S3BlobStore;
    let server: S3TestServer;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ blobs, server, cleanup } = await create());
    });
    after(() => cleanup());
    const begin = async (partials: S3PartialStore, length: number): Promise<PartialBlob> => {
      const blob = { key: newKey(), version: newBlobVersion(), length };
      return { ...blob, storeState: await partials.begin(blob, 'application/octet-stream') };
    };
    const tailSizesOf = async (blob: PartialBlob) => {
      const Prefix = `${blob.key}.${blob.version}.tail-`;
      const listed = await blobs.area.client.send(
        new ListObjectsV2Command({ Bucket: blobs.area.bucket, Prefix }),
      );
      return (listed.Contents ?? []).map((object) => [object.Key?.slice(Prefix.length), object.Size]);
    };
    const partSizesOf = async (blob: PartialBlob) => {
      const { client, bucket } = blobs.area;
      const { uploadId } = JSON.parse(blob.storeState!) as { uploadId: string };
      const Key = `${blob.key}.${blob.version}`;
      const listed = await client.send(new ListPartsCommand({ Bucket: bucket, Key, UploadId: uploadId }));
      return (listed.Parts ?? []).map((part) => part.Size);
    };

    it('cuts appends of 3 MiB into 5 MiB parts, parking each unfinished part, and leaves no tail', async () => {
      const partials = new S3PartialStore({ ...blobs.area, partSizeBytes: 5 * MiB });
      const whole = randomBytes(11 * MiB + 5);
      const blob = await begin(partials, whole.length);
      const expected = [
        { offset: 3 * MiB, parts: [], tails: [['1', 3 * MiB]] },
        {
          offset: 6 * MiB,
          parts: [5 * MiB],
          tails: [
            ['1', 3 * MiB],
            ['2', 1 * MiB],
          ],
        },
        {
          offset: 9 * MiB,
          parts: [5 * MiB],
          tails: [
            ['1', 3 * MiB],
            ['2', 4 * MiB],
          ],
        },
        {
          offset: whole.length,
          parts: [5 * MiB, 5 * MiB, 1 * MiB + 5],
          tails: [
            ['1', 3 * MiB],
            ['2', 4 * MiB],
          ],
        },
      ];
      let offset = 0;
      for (const step of expected) {
        assert.deepEqual(await partials.append(blob, offset, bodyOf(whole.subarray(offset, step.offset))), {
          offset: step.offset,
        });
        offset = step.offset;
        assert.deepEqual(await partSizesOf(blob), step.parts);
        assert.deepEqual(await tailSizesOf(blob), step.tails);
      }
      const stored = await partials.complete(blob, { contentType: 'application/octet-stream' });
      assert.equal(stored.sizeBytes, whole.length);
      assert.deepEqual(await md5Of((await blobs.get(blob.key, blob.version))!.body), await md5Of(whole));
      assert.deepEqual(await leftoversOf(blobs, blob), [], 'no multipart upload, no .tail- object');
    });

    it('holds about one part of a 64 MiB body, not the body: parts reach S3 while it streams', async () => {
      const partSizeBytes = 8 * MiB;
      const partials = new S3PartialStore({ ...blobs.area, partSizeBytes });
      const bodyBytes = 64 * MiB;
      const blob = await begin(partials, bodyBytes);
      // Parts not yet in S3 when the body's next part starts: what the store holds in memory.
      // Counted rather than RSS sampled: exact, whatever else the machine is doing.
      const partsBehind: number[] = [];
      async function* chunks() {
        for (let sent = 0; sent < bodyBytes; sent += 64 * 1024) {
          if (sent > 0 && sent % partSizeBytes === 0) {
            partsBehind.push(sent / partSizeBytes - (await partSizesOf(blob)).length);
          }
          yield Buffer.alloc(64 * 1024, sent / 65536);
        }
      }
      const answer = await partials.append(blob, 0, Readable.from(chunks(), { objectMode: false }));
      assert.deepEqual(answer, { offset: bodyBytes });
      // One part filling (and being sent) at a time; a store holding the body would be 7 behind.
      assert.ok(Math.max(...partsBehind) <= 2, `parts behind the body: ${partsBehind}`);
      await partials.abort(blob);
    });

    it('parks what a failing body brought, to its last byte', async () => {
      const partials = new S3PartialStore({ ...blobs.area, partSizeBytes: 5 * MiB });
      const whole = randomBytes(7 * MiB + 5);
      const blob = await begin(partials, 12 * MiB);
      async function* failing() {
        yield whole;
        throw new Error('the client went away');
      }
      const answer = await partials.append(blob, 0, Readable.from(failing(), { objectMode: false }));
      assert.equal(answer.offset, whole.length);
      assert.match(String(answer.failure), /went away/);
      assert.deepEqual(await partSizesOf(blob), [5 * MiB]);
      assert.deepEqual(await tailSizesOf(blob), [['2', 2 * MiB + 5]]);
      await partials.abort(blob);
    });

    it('makes each part as large as an upload of 10,000 parts needs', async () => {
      const partials = new S3PartialStore({ ...blobs.area, partSizeBytes: 5 * MiB });
      const blob = await begin(partials, 100 * 1024 * MiB);
      assert.deepEqual(JSON.parse(blob.storeState!).partSize, 11 * MiB);
      await partials.abort(blob);
      assert.deepEqual(await leftoversOf(blobs, blob), []);
    });

    it('answers UNAVAILABLE when S3 does not answer and nothing new was kept', async () => {
      const unreachable = blobStoreFor(server, `http://127.0.0.1:${await closedPort()}`);
      const partials = new S3PartialStore({ ...unreachable.area, partSizeBytes: 5 * MiB });
      const blob = { key: newKey(), version: newBlobVersion(), length: 6 * MiB };
      await assert.rejects(partials.begin(blob, 'a/b'), { code: 'UNAVAILABLE' });
      const begun = { ...blob, storeState: JSON.stringify({ uploadId: 'gone', partSize: 5 * MiB }) };
      await assert.rejects(partials.append(begun, 0, bodyOf(randomBytes(6 * MiB))), { code: 'UNAVAILABLE' });
      await assert.rejects(partials.append(begun, 3, bodyOf('x')), { code: 'UNAVAILABLE' });
      await assert.rejects(partials.complete(begun, { contentType: 'a/b' }), { code: 'UNAVAILABLE' });
      await unreachable.close();
    });
  });
}

/** A loopback port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
