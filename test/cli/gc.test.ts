import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateMultipartUploadCommand, S3Client } from '@aws-sdk/client-s3';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import { parseS3StorageUrl } from '../../src/blob-stores/s3-blob-store.ts';
import { thisProcess, toTempName } from '../../src/blob-stores/temp-file-owner.ts';
import type { BlobStore } from '../../src/domain/blobs/blob-store.ts';
import type { BlobSweeper } from '../../src/domain/blobs/blob-sweeper.ts';
import { bodyOf } from '../support/byte-streams.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

type Store = BlobStore & BlobSweeper;
type Report = {
  applied: boolean;
  removed: number;
  stray: Record<string, { count: number; bytes: number }>;
  items: { kind: string; name: string; reason: string }[];
};

// Short enough to wait out in a test; the grace must exceed the request timeout.
const shortGrace = { COFFER_REQUEST_TIMEOUT_SECONDS: '2', COFFER_GC_GRACE_SECONDS: '3' };

describe('coffer gc: reports (dry run) and removes (--apply) what is stray, on either store', () => {
  let coffer: CofferProcess;
  let store: Store;
  before(async () => {
    coffer = await startCofferProcess({ env: { COFFER_GC_INTERVAL_SECONDS: '0' } });
    store = await openBlobStore(storageUrlOf(coffer));
    // Deletes here are final, as before the trash (issue 38): what gc sees of a deleted file's bytes.
    const set = await runCli(
      ['project', 'set', 'default', 'trashRetentionDays=0', '--data-dir', coffer.dataDir],
      coffer.env,
    );
    assert.equal(set.code, 0, set.stderr);
  });
  after(async () => {
    await closeStore(store);
    await coffer.stop();
  });
  const gc = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runCli(['gc', ...args, '--data-dir', coffer.dataDir], { ...coffer.env, ...env });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  const gcJson = async (env: Record<string, string> = {}) => JSON.parse(await gc(['--json'], env)) as Report;

  it('finds unreferenced versions after the grace period, orphaned staging objects, dead temp files and old multipart uploads', async () => {
    const api = filesApi(coffer);
    const token = (await coffer.client.signup()).token;
    const { projectId } = coffer.credentials;
    const verified = await api.upload(token, 'kept.txt', 'verified bytes');
    const pending = await api.put(token, 'pending.txt', 'pending bytes'); // unverified: its upload is referenced
    const deleted = await api.upload(token, 'deleted.txt', 'deleted bytes');
    assert.equal((await coffer.client.call('DELETE', `/api/v1/file/${deleted}`, { token })).status, 204);

    // Strays, as crashes and failed deletes leave them.
    const planted = { versions: [] as string[], staging: [] as string[], other: [] as string[] };
    let strayBytes = 0;
    for (const [fileId, text] of [
      [verified, 'a superseded upload'],
      [deleted, 'bytes whose delete failed'],
      ['fNeverCommitted0000000', 'a put that crashed before its commit'],
    ] as const) {
      const stored = await store.put(`${projectId}/${fileId}`, bodyOf(text), {
        contentType: 'a/b',
        maxBytes: 1024,
      });
      planted.versions.push(`${projectId}/${fileId}.${stored.version}`);
      strayBytes += text.length;
    }
    const plantedAt = Date.now();
    if (store.presignUpload) {
      // Direct-upload staging objects: the verified file's is no longer needed, the deleted
      // file's never will be, the pending file's is still in use.
      for (const fileId of [verified, deleted, pending.fileId]) {
        const url: string = await store.presignUpload(`${projectId}/${fileId}`, {
          expiresInSeconds: 60,
          contentType: 'a/b',
        });
        const put: Response = await fetch(url, {
          method: 'PUT',
          body: 'staged',
          headers: { 'content-type': 'a/b' },
        });
        assert.equal(put.status, 200);
      }
      planted.staging.push(`${projectId}/${verified}`, `${projectId}/${deleted}`);
      planted.other.push(
        await startMultipartUpload(coffer, `${projectId}/${verified}.abcdef0123456789abcdef01`),
      );
    } else {
      const name = toTempName({ ...thisProcess(), pid: await deadPid() });
      await writeFile(path.join(coffer.dataDir, 'blobs', '.tmp', name), 'left by kill -9');
      planted.other.push(name);
    }

    // Within the grace period (default: hours) versions and multipart uploads are spared: a put
    // that has not committed yet looks the same.
    const early = await gcJson();
    assert.equal(early.applied, false);
    assert.deepEqual(namesOf(early, 'version'), []);
    assert.deepEqual(namesOf(early, 'staging'), planted.staging.sort());

    while (Date.now() < plantedAt + 3500) await sleep(250);
    const dryRun = await gcJson(shortGrace);
    assert.deepEqual(namesOf(dryRun, 'version'), planted.versions.sort());
    assert.deepEqual(namesOf(dryRun, 'staging'), planted.staging.sort());
    assert.deepEqual(
      [...namesOf(dryRun, 'temp-file'), ...namesOf(dryRun, 'multipart-upload')],
      planted.other,
    );
    assert.equal(dryRun.removed, 0);
    assert.equal(dryRun.stray.version?.bytes, strayBytes);
    const total = planted.versions.length + planted.staging.length + planted.other.length;
    const text = await gc([], shortGrace);
    assert.match(text, new RegExp(`^Dry run: ${total} stray items, nothing removed \\(run with --apply`));
    for (const name of planted.versions) assert.ok(text.includes(`\nversion\t${name}\t`), text);

    // The dry runs removed nothing: --apply finds and removes every stray.
    const applied = await gc(['--apply'], shortGrace);
    assert.match(applied, new RegExp(`^Removed ${total} of ${total} stray items\\.`));
    assert.deepEqual((await gcJson(shortGrace)).items, []);
    // What records need is untouched.
    assert.equal(await api.download(token, verified), 'verified bytes');
    assert.equal((await api.verify(token, pending.fileId, pending.etag)).status, 200);
    assert.equal(await api.download(token, pending.fileId), 'pending bytes');
    if (store.presignUpload) {
      const staging = [];
      for await (const page of store.listObjects({ pageSize: 100 }))
        staging.push(...page.filter((object) => !object.version).map((object) => object.key));
      assert.deepEqual(
        staging,
        [`${projectId}/${pending.fileId}`],
        'the unverified file keeps its staging object',
      );
    }
  });
});

describe('serve removes stray blobs by itself, at start and periodically', () => {
  let coffer: CofferProcess;
  let store: Store;
  before(async () => {
    coffer = await startCofferProcess({ env: { COFFER_GC_INTERVAL_SECONDS: '1', ...shortGrace } });
    store = await openBlobStore(storageUrlOf(coffer));
  });
  after(async () => {
    await closeStore(store);
    await coffer.stop();
  });

  it('removes an unreferenced version once past the grace period, keeping what records need', async () => {
    const api = filesApi(coffer);
    const token = (await coffer.client.signup()).token;
    const fileId = await api.upload(token, 'kept.txt', 'verified bytes');
    const key = `${coffer.credentials.projectId}/${fileId}`;
    const stray = await store.put(key, bodyOf('superseded'), { contentType: 'a/b', maxBytes: 1024 });
    const tempFile = path.join(
      coffer.dataDir,
      'blobs',
      '.tmp',
      toTempName({ ...thisProcess(), pid: await deadPid() }),
    );
    if (!store.presignUpload) await writeFile(tempFile, 'left by kill -9');
    const versionsOf = async () => {
      const versions: string[] = [];
      for await (const page of store.listObjects({ pageSize: 100 }))
        versions.push(...page.filter((object) => object.key === key).map((object) => object.version ?? ''));
      return versions;
    };
    assert.ok((await versionsOf()).includes(stray.version));
    const deadline = Date.now() + 60_000;
    while ((await versionsOf()).includes(stray.version)) {
      assert.ok(Date.now() < deadline, 'serve never removed the stray version');
      await sleep(250);
    }
    assert.equal((await versionsOf()).length, 1);
    assert.equal(await api.download(token, fileId), 'verified bytes');
    if (!store.presignUpload) assert.deepEqual(await readdir(path.dirname(tempFile)), []);
  });

  it('keeps the bytes a copy serves after its source was deleted', async () => {
    const api = filesApi(coffer);
    const token = (await coffer.client.signup()).token;
    const sourceId = await api.upload(token, 'source.txt', 'bytes a copy serves');
    const copy = await coffer.client.call('POST', `/api/v1/file/${sourceId}/copy`, {
      token,
      body: { filePath: 'copy.txt' },
    });
    assert.equal(copy.status, 200, copy.text);
    assert.equal((await coffer.client.call('DELETE', `/api/v1/file/${sourceId}`, { token })).status, 204);
    // The source's key now has no record of its own: only the copy names its version. A stray
    // put beside it marks a pass that ran past the grace period once it is gone.
    const key = `${coffer.credentials.projectId}/${sourceId}`;
    const marker = await store.put(key, bodyOf('marker'), { contentType: 'a/b', maxBytes: 1024 });
    const versionsOf = async () => {
      const versions: string[] = [];
      for await (const page of store.listObjects({ pageSize: 100 }))
        versions.push(...page.filter((object) => object.key === key).map((object) => object.version ?? ''));
      return versions;
    };
    const deadline = Date.now() + 60_000;
    while ((await versionsOf()).includes(marker.version)) {
      assert.ok(Date.now() < deadline, 'serve never removed the marker');
      await sleep(250);
    }
    assert.equal((await versionsOf()).length, 1, "the copy's version stays");
    assert.equal(await api.download(token, copy.body._id), 'bytes a copy serves');
  });
});

function storageUrlOf(coffer: CofferProcess): string {
  return coffer.env.COFFER_STORAGE_URL ?? `file:${path.join(coffer.dataDir, 'blobs')}`;
}

async function closeStore(store: Store | undefined): Promise<void> {
  if (store && 'close' in store && typeof store.close === 'function') await store.close();
}

/** Starts a multipart upload to `key` in the server's bucket (under its prefix) and leaves it open. */
async function startMultipartUpload(coffer: CofferProcess, key: string): Promise<string> {
  const location = parseS3StorageUrl(coffer.env.COFFER_STORAGE_URL ?? '');
  const client = new S3Client({ region: location.region, endpoint: location.endpoint, forcePathStyle: true });
  const Key = `${location.prefix ? `${location.prefix}/` : ''}${key}`;
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: location.bucket, Key }));
  client.destroy();
  return `${Key} (upload ${UploadId})`;
}

/** The PID of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

function namesOf(report: Report, kind: string): string[] {
  return report.items
    .filter((item) => item.kind === kind)
    .map((item) => item.name)
    .sort();
}

/** Upload steps over HTTP, as a client does them. */
function filesApi(coffer: CofferProcess) {
  const call = coffer.client.call.bind(coffer.client);
  const api = {
    async put(token: string, filePath: string, text: string) {
      const requested = await call('POST', '/api/v1/file', { token, body: { filePath } });
      assert.equal(requested.status, 200, requested.text);
      const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: text });
      assert.equal(put.status, 200);
      return { fileId: requested.body.fileId as string, etag: put.headers.get('etag') ?? '' };
    },
    verify: (token: string, fileId: string, etag: string) =>
      call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } }),
    async upload(token: string, filePath: string, text: string) {
      const { fileId, etag } = await api.put(token, filePath, text);
      assert.equal((await api.verify(token, fileId, etag)).status, 200);
      return fileId;
    },
    async download(token: string, fileId: string) {
      const file = await call('GET', `/api/v1/file/${fileId}`, { token });
      assert.equal(file.status, 200, file.text);
      return (await fetch(file.body.url)).text();
    },
  };
  return api;
}
