import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type S3TestServer, startS3Server } from '../support/s3-server.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.ts';
import { currentStackName } from '../support/test-stack.ts';

const KiB = 1024;

/**
 * Faults: a full disk. A small file system of its own (tmpfs) holds the blobs (embedded: the
 * disk store; pg-s3: the S3 server's directory) or the SQLite database; it is filled for real.
 * While full: 507 STORAGE_FULL for writes, nothing partial kept, reads and downloads work,
 * /readyz 503 naming the store. Once space is freed: everything works again.
 */
describe('disk full', () => {
  describe(`the blob store's disk (${currentStackName() === 'embedded' ? 'local disk' : 'the S3 server'})`, () => {
    let disk: SmallFilesystem | string;
    let s3: S3TestServer | undefined;
    let server: TestServer;
    let token: string;
    before(async () => {
      disk = await mountSmallFilesystem(2 * 1024 * KiB);
      if (typeof disk === 'string') return;
      if (currentStackName() === 'embedded') {
        server = await startTestServer({ 'storage-url': `file:${path.join(disk.dir, 'blobs')}` });
      } else {
        s3 = await startS3Server({ directory: disk.dir });
        server = await startTestServer({ 'storage-url': s3.storageUrl });
      }
      token = (await server.client.signup()).token;
    });
    after(async () => {
      await server?.stop();
      await s3?.stop();
      if (typeof disk !== 'string') await disk.unmount();
    });

    it('answers 507 STORAGE_FULL, keeps nothing partial, keeps serving reads, and recovers', async (t) => {
      if (typeof disk === 'string') return t.skip(disk);
      const api = uploads(server, token);
      const keeper = await api.upload('keeper.txt', 'kept through it all');
      // Fill it: large uploads until one is refused, then ever smaller ones, until not even
      // one page fits (the readiness probe writes one page).
      const accepted: string[] = [];
      for (const sizeBytes of [256 * KiB, 32 * KiB, 4 * KiB]) {
        for (let attempt = 0; ; attempt++) {
          assert.ok(attempt < 64, `${sizeBytes}-byte uploads never filled the disk`);
          const outcome = await api.tryUpload(`fill-${sizeBytes}-${attempt}.bin`, Buffer.alloc(sizeBytes, 7));
          if (outcome.status === 507) {
            assert.equal(outcome.code, 'STORAGE_FULL', outcome.text);
            break;
          }
          assert.equal(outcome.status, 200, outcome.text);
          accepted.push(outcome.fileId);
        }
      }
      assert.ok(accepted.length > 0);
      // Three refusals (one per size), each counted once as a failure of the blob store.
      const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
      assert.match(metrics, /^coffer_store_errors_total\{store="blob store",code="STORAGE_FULL"\} 3$/m);

      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 503);
      const readyBody = await ready.json();
      assert.equal(readyBody.code, 'UNAVAILABLE');
      assert.match(readyBody.message, /blob store \(full/);

      await assertNothingPartial(server, disk, s3);
      // Reads, listings and downloads of existing files keep working.
      assert.equal((await api.download(keeper)).toString(), 'kept through it all');
      const listed = await server.client.call('GET', '/api/v1/file?pageSize=100', { token });
      assert.equal(listed.status, 200);
      // The keeper, the accepted uploads and the three refused ones (records without bytes).
      assert.equal(listed.body.total, accepted.length + 1 + 3);

      // Free space through the API: deleting files and purging them from the trash removes their bytes.
      for (const fileId of accepted.slice(0, 2)) {
        const deleted = await server.client.call('DELETE', `/api/v1/file/${fileId}`, { token });
        assert.equal(deleted.status, 204, deleted.text);
        const purged = await server.client.call('DELETE', `/api/v1/trash/${fileId}`, { token });
        assert.equal(purged.status, 204, purged.text);
      }
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
      const again = await api.upload('after.txt', 'space is back');
      assert.equal((await api.download(again)).toString(), 'space is back');
    });
  });

  describe('the SQLite database disk', () => {
    let disk: SmallFilesystem | string;
    let server: TestServer;
    let token: string;
    before(async () => {
      if (currentStackName() !== 'embedded') return;
      disk = await mountSmallFilesystem(2 * 1024 * KiB);
      if (typeof disk === 'string') return;
      server = await startTestServer({ 'database-url': `sqlite:${path.join(disk.dir, 'coffer.db')}` });
      token = (await server.client.signup()).token;
    });
    after(async () => {
      await server?.stop();
      if (typeof disk === 'object') await disk.unmount();
    });

    it('answers 507 STORAGE_FULL for writes, keeps no bytes without a record, serves reads, and recovers', async (t) => {
      if (currentStackName() !== 'embedded') return t.skip('SQLite runs on the embedded stack only');
      if (typeof disk === 'string') return t.skip(disk);
      const api = uploads(server, token);
      const keeper = await api.upload('keeper.txt', 'kept through it all');
      const pending = await api.request('pending.txt');
      await disk.fill('filler');

      // Every write is refused until a transaction needs a page the disk no longer has.
      let refused: Awaited<ReturnType<typeof api.tryRequest>> | undefined;
      for (let attempt = 0; attempt < 200 && !refused; attempt++) {
        const outcome = await api.tryRequest(`doc-${attempt}.txt`);
        if (outcome.status !== 200) refused = outcome;
      }
      assert.equal(refused?.status, 507, refused?.text);
      assert.equal(refused?.body.code, 'STORAGE_FULL');
      // The upload's bytes are stored (another disk); its commit, one small update, may still
      // fit in WAL space a checkpoint freed (then the record holds the bytes), or not: then it
      // answers 507 and its bytes are removed. Either way no bytes stay without a record.
      const put = await fetch(pending.putFileUrl, { method: 'PUT', body: 'no room for the record?' });
      if (put.status === 200) {
        await put.arrayBuffer();
        assert.equal((await versionFilesOf(server, pending.fileId)).length, 1);
      } else {
        assert.equal(put.status, 507);
        assert.equal((await put.json()).code, 'STORAGE_FULL');
        assert.deepEqual(await versionFilesOf(server, pending.fileId), []);
      }

      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 503);
      assert.match((await ready.json()).message, /database \(full/);
      assert.equal((await api.download(keeper)).toString(), 'kept through it all');

      await rm(path.join(disk.dir, 'filler'));
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
      const again = await api.upload('after.txt', 'space is back');
      assert.equal((await api.download(again)).toString(), 'space is back');
      const retried = await fetch(pending.putFileUrl, { method: 'PUT', body: 'room again' });
      assert.equal(retried.status, 200);
    });
  });
});

/** Upload steps over HTTP, as a client does them. */
function uploads(server: TestServer, token: string) {
  const request = async (filePath: string) => {
    const response = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(response.status, 200, response.text);
    return response.body as { fileId: string; putFileUrl: string };
  };
  return {
    request,
    tryRequest: (filePath: string) =>
      server.client.call('POST', '/api/v1/file', { token, body: { filePath } }),
    /** Requests, PUTs and verifies; answers the PUT's status and code. */
    async tryUpload(filePath: string, body: Buffer) {
      const { fileId, putFileUrl } = await request(filePath);
      const put = await fetch(putFileUrl, { method: 'PUT', body: new Uint8Array(body) });
      const text = await put.text();
      if (put.status !== 200) return { status: put.status, code: JSON.parse(text).code, text, fileId };
      const etag = put.headers.get('etag');
      const verified = await server.client.call('POST', `/api/v1/file/${fileId}/verify`, {
        token,
        body: { etag },
      });
      assert.equal(verified.status, 200, verified.text);
      return { status: 200, code: undefined, text, fileId };
    },
    async upload(filePath: string, text: string) {
      const outcome = await this.tryUpload(filePath, Buffer.from(text));
      assert.equal(outcome.status, 200, outcome.text);
      return outcome.fileId;
    },
    async download(fileId: string): Promise<Buffer> {
      const file = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
      assert.equal(file.status, 200, file.text);
      const response = await fetch(file.body.url);
      assert.equal(response.status, 200);
      return Buffer.from(await response.arrayBuffer());
    },
  };
}

/** No temp file, no version without a record naming it, no multipart upload left open. */
async function assertNothingPartial(server: TestServer, disk: SmallFilesystem, s3: S3TestServer | undefined) {
  const stored: { key: string; version?: string }[] = [];
  for await (const page of server.services.blobs.listObjects({ pageSize: 100 })) stored.push(...page);
  if (!s3) assert.deepEqual(await readdir(path.join(disk.dir, 'blobs', '.tmp')), []);
  else {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3,
    });
    const open = await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
    assert.deepEqual(open.Uploads ?? [], []);
    client.destroy();
  }
  const references = await server.services.repositories.files.findBlobReferences(
    stored.map((object) => object.key.split('/')[1] ?? ''),
  );
  for (const object of stored) {
    const record = references.get(object.key.split('/')[1] ?? '');
    assert.ok(
      record && [record.blobVersion, record.uploadBlobVersion].includes(object.version ?? null),
      `${object.key}.${object.version} is kept without a record naming it`,
    );
  }
}

async function versionFilesOf(server: TestServer, fileId: string): Promise<string[]> {
  const names: string[] = [];
  for await (const page of server.services.blobs.listObjects({ pageSize: 100 }))
    names.push(...page.filter((object) => object.key.endsWith(`/${fileId}`)).map((object) => object.key));
  return names;
}
