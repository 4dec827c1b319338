import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FsBlobStore } from '../../src/blob-stores/fs-blob-store.ts';
import { bodyOf, generatedBody } from '../support/byte-streams.ts';
import { newKey, runBlobStoreContract } from './blob-store.contract.ts';

async function createFsStore() {
  const rootDir = await mkdtemp(join(tmpdir(), 'coffer-fs-blobs-'));
  return { store: new FsBlobStore({ rootDir }), rootDir, cleanup: () => rm(rootDir, { recursive: true }) };
}

runBlobStoreContract('FsBlobStore', createFsStore);

describe('FsBlobStore on disk', () => {
  let fixture: Awaited<ReturnType<typeof createFsStore>>;
  before(async () => {
    fixture = await createFsStore();
  });
  after(() => fixture.cleanup());
  const filesOf = (dir: string) => readdir(join(fixture.rootDir, dir)).then((names) => names.sort());
  const put = (key: string, text: string) =>
    fixture.store.put(key, bodyOf(text), { contentType: 'text/plain', maxBytes: 1024 });

  it('leaves no temp or version file after failed, aborted or oversized uploads', async () => {
    const key = newKey();
    await put(key, 'previous');
    const committed = await filesOf(key.split('/')[0]!);
    const maxBytes = 8 * 1024 * 1024;
    const failing = generatedBody(2 * 1024 * 1024, { failAtBytes: 1024 * 1024 });
    await assert.rejects(fixture.store.put(key, failing.body, { contentType: 'a/b', maxBytes }));
    const controller = new AbortController();
    const aborted = generatedBody(2 * 1024 * 1024, { onProgress: () => controller.abort() });
    const signal = controller.signal;
    await assert.rejects(fixture.store.put(key, aborted.body, { contentType: 'a/b', maxBytes, signal }));
    await assert.rejects(put(key, 'x'.repeat(1025)), { code: 'FILE_TOO_LARGE' });
    assert.deepEqual(await filesOf('.tmp'), []);
    assert.deepEqual(await filesOf(key.split('/')[0]!), committed);
  });

  it('keeps one file per version, named after the key and the version, and nothing else', async () => {
    const [project, file] = newKey().split('/') as [string, string];
    const versions = [];
    for (const text of ['one', 'two', 'three'])
      versions.push((await put(`${project}/${file}`, text)).version);
    assert.deepEqual(await filesOf(project), versions.map((version) => `${file}.${version}.blob`).sort());
  });

  it('writes nothing outside rootDir for escaping keys', async () => {
    const outside = await readdir(join(fixture.rootDir, '..'));
    for (const key of ['..', '../x', '/tmp/x', 'a/../../x']) {
      await assert.rejects(put(key, 'escape'), { code: 'VALIDATION_FAILED' });
    }
    assert.deepEqual(await readdir(join(fixture.rootDir, '..')), outside);
  });

  it('sweeps temp files older than an hour at startup and keeps fresh ones', async () => {
    const { store, rootDir, cleanup } = await createFsStore();
    await store.check();
    const stale = join(rootDir, '.tmp', 'stale.tmp');
    await writeFile(stale, 'left by a crash');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await writeFile(join(rootDir, '.tmp', 'fresh.tmp'), 'in progress');
    await new FsBlobStore({ rootDir }).check();
    assert.deepEqual(await readdir(join(rootDir, '.tmp')), ['fresh.tmp']);
    await cleanup();
  });

  it('fails check() with UNAVAILABLE when rootDir cannot be created', async () => {
    const blocker = join(fixture.rootDir, 'not-a-dir');
    await writeFile(blocker, '');
    await assert.rejects(new FsBlobStore({ rootDir: join(blocker, 'blobs') }).check(), {
      code: 'UNAVAILABLE',
    });
  });
});
