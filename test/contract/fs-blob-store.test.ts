import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { FsBlobStore } from '../../src/blob-stores/fs-blob-store.ts';
import {
  newTempName,
  thisProcess,
  toTempFileOwner,
  toTempName,
} from '../../src/blob-stores/temp-file-owner.ts';
import { bodyOf, generatedBody } from '../support/byte-streams.ts';
import { newKey, runBlobStoreContract } from './blob-store.contract.ts';
import { runBlobSweeperContract } from './blob-sweeper.contract.ts';

const writerScript = join(import.meta.dirname, '../support/fs-writer-process.ts');

async function createFsStore() {
  const rootDir = await mkdtemp(join(tmpdir(), 'coffer-fs-blobs-'));
  return { store: new FsBlobStore({ rootDir }), rootDir, cleanup: () => rm(rootDir, { recursive: true }) };
}

runBlobStoreContract('FsBlobStore', createFsStore, { etagScheme: 'truncated-sha256' });
runBlobSweeperContract('FsBlobStore', createFsStore);

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

describe('FsBlobStore temp files: swept once their writer is gone', () => {
  let fixture: Awaited<ReturnType<typeof createFsStore>>;
  let tmpDir: string;
  before(async () => {
    fixture = await createFsStore();
    await fixture.store.check(); // creates .tmp
    tmpDir = join(fixture.rootDir, '.tmp');
  });
  after(() => fixture.cleanup());
  const plant = async (name: string) => {
    await writeFile(join(tmpDir, name), 'partial upload');
    return name;
  };
  const sweptAtStart = async () => {
    await new FsBlobStore({ rootDir: fixture.rootDir }).check();
    return (await readdir(tmpDir)).sort();
  };

  it('sweeps at start the temp files of a writer killed with kill -9', async () => {
    const writer = spawn(process.execPath, [writerScript, fixture.rootDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(writer, 'exit');
    await once(createInterface({ input: writer.stdout }), 'line');
    const [partial] = await readdir(tmpDir);
    assert.ok(partial, 'the writer has a temp file');
    // Its writer is alive: a sweep now keeps the file.
    assert.deepEqual(await sweptAtStart(), [partial]);
    writer.kill('SIGKILL');
    await exited;
    assert.deepEqual(await sweptAtStart(), []);
  });

  it('keeps files of live writers (this process, a live child) and removes those of gone or reused PIDs', async () => {
    const me = thisProcess();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const childExited = once(child, 'exit');
    try {
      const childPid = child.pid!;
      // Field 22 of /proc/<pid>/stat (after the command name in parentheses); absent off Linux.
      const stat = await readFile(`/proc/${childPid}/stat`, 'utf8').catch(() => undefined);
      const childStart = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const live = [
        await plant(toTempName(me)),
        await plant(toTempName({ ...me, pid: childPid, start: childStart ?? '0' })),
        // Another host or PID namespace cannot be asked: only age tells.
        await plant(toTempName({ ...me, host: 'abcdef01', pid: 1 })),
        // Not in our format (older versions): only age tells.
        await plant('0d9f2a3c-4e5f-4a6b-8c7d-9e0f1a2b3c4d.tmp'),
      ];
      await plant(toTempName({ ...me, token: 'ffffffff' })); // an earlier process with our PID
      if (childStart)
        await plant(toTempName({ ...me, pid: childPid, start: String(Number(childStart) + 1) }));
      const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      await once(gone, 'exit');
      await plant(toTempName({ ...me, pid: gone.pid! }));
      assert.deepEqual(await sweptAtStart(), live.sort());
    } finally {
      child.kill();
      await childExited;
    }
  });

  it('names its own temp files after this process', async () => {
    const owner = toTempFileOwner(newTempName());
    assert.deepEqual({ ...owner }, { ...thisProcess() });
    assert.equal(toTempFileOwner('x.tmp'), undefined);
  });
});

describe('FsBlobStore as a BlobSweeper: lists only what it wrote', () => {
  it('skips foreign files, sidecars and temp files, and lists versions of two-segment keys', async () => {
    const { store, rootDir, cleanup } = await createFsStore();
    const stored = await store.put('proj/file', bodyOf('bytes'), { contentType: 'a/b', maxBytes: 100 });
    await writeFile(join(rootDir, 'README'), 'not a blob');
    await writeFile(join(rootDir, 'proj', 'file.json'), '{}');
    await writeFile(join(rootDir, 'proj', 'file.blob'), 'no version');
    await writeFile(join(rootDir, 'proj', 'file.ABCDEF0123456789ABCDEF01.blob'), 'not our version');
    await mkdir(join(rootDir, 'proj', 'nested'));
    await writeFile(join(rootDir, 'proj', 'nested', `f.${stored.version}.blob`), 'three segments');
    await writeFile(join(rootDir, '.tmp', toTempName({ ...thisProcess(), token: '00000000' })), 'stray');
    const listed = [];
    for await (const page of store.listObjects({ pageSize: 10 })) listed.push(...page);
    assert.deepEqual(
      listed.map((object) => [object.key, object.version, object.sizeBytes]),
      [['proj/file', stored.version, 5]],
    );
    const writes = [];
    for await (const page of store.listUnfinishedWrites({ pageSize: 10 })) writes.push(...page);
    assert.deepEqual(
      writes.map((write) => write.kind),
      ['temp-file'],
    );
    await store.removeUnfinishedWrite(writes[0]!);
    await store.removeUnfinishedWrite({ ...writes[0]!, name: '../README' } as never);
    assert.deepEqual(await readdir(join(rootDir, '.tmp')), []);
    assert.ok((await readdir(rootDir)).includes('README'));
    await cleanup();
  });
});
