import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName, type TestStack } from '../support/test-stack.ts';

const embedded: TestStack = { name: 'embedded', settings: {}, env: {}, cleanup: async () => {} };

/** Every entry under `root` (itself as '.'), with its permission bits. */
async function listModes(root: string): Promise<Map<string, { mode: number; isDirectory: boolean }>> {
  const modes = new Map<string, { mode: number; isDirectory: boolean }>();
  const rootInfo = await stat(root);
  modes.set('.', { mode: rootInfo.mode & 0o777, isDirectory: true });
  for (const name of await readdir(root, { recursive: true })) {
    const info = await stat(path.join(root, name));
    modes.set(name, { mode: info.mode & 0o777, isDirectory: info.isDirectory() });
  }
  return modes;
}

/** Directories 0700, files 0600: nothing readable by other users of the machine. */
async function assertPrivate(root: string): Promise<void> {
  const loose = [...(await listModes(root))]
    .filter(([, entry]) => entry.mode !== (entry.isDirectory ? 0o700 : 0o600))
    .map(([name, entry]) => `${name} ${entry.mode.toString(8)}`);
  assert.deepEqual(loose, [], `entries of ${root} readable by others`);
}

/** What an earlier version left: directories 0755, files 0644. */
async function loosen(root: string): Promise<void> {
  for (const [name, entry] of await listModes(root))
    await chmod(path.join(root, name), entry.isDirectory ? 0o755 : 0o644);
}

describe('secrets and users’ files on disk: 0600 files in 0700 directories', {
  // The modes of the embedded stack's files: the pg-s3 pass has none of them.
  skip: currentStackName() === 'pg-s3' && 'embedded stack only',
}, () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-modes-'));
  });
  after(() => rm(work, { recursive: true, force: true }));

  /** A data dir Coffer created and served from, holding one user's verified file. */
  async function servedDataDir(name: string): Promise<string> {
    const dataDir = path.join(work, name, 'data');
    const coffer = await startCofferProcess({ dataDir, stack: embedded });
    try {
      const user = await coffer.client.signup();
      await coffer.client.uploadFile(user.token, 'private/report.txt', 'private bytes');
    } finally {
      await coffer.stop();
    }
    return dataDir;
  }

  it('after serve: the data dir, the database with its -wal and -shm, the credentials and every blob', async () => {
    const dataDir = path.join(work, 'serving', 'data');
    const coffer = await startCofferProcess({ dataDir, stack: embedded });
    try {
      const user = await coffer.client.signup();
      await coffer.client.uploadFile(user.token, 'private/report.txt', 'private bytes');
      const names = [...(await listModes(dataDir)).keys()];
      for (const name of ['coffer.db', 'coffer.db-wal', 'coffer.db-shm', 'default-project.json', 'blobs'])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      assert.ok(names.filter((name) => name.startsWith('blobs/')).length >= 3, 'the blob files');
      await assertPrivate(dataDir);
    } finally {
      await coffer.stop();
    }
  });

  it('after export: the export directory (new, or empty and loose) and every file in it', async () => {
    const dataDir = await servedDataDir('exporting');
    const fresh = path.join(work, 'exporting', 'export');
    const exported = await runCli(['export', '--data-dir', dataDir, '--out', fresh]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok((await readdir(path.join(fresh, 'blobs'), { recursive: true })).length >= 3, 'the blobs');
    await assertPrivate(fresh);

    const existing = path.join(work, 'exporting', 'made-by-the-operator');
    await mkdir(existing);
    await chmod(existing, 0o755);
    const again = await runCli(['export', '--data-dir', dataDir, '--out', existing]);
    assert.equal(again.code, 0, again.stderr);
    await assertPrivate(existing);
  });

  it('files an earlier version left readable are tightened at start, and the log says so once', async () => {
    const dataDir = await servedDataDir('upgrading');
    await loosen(dataDir);
    const upgraded = await startCofferProcess({ dataDir, stack: embedded });
    await upgraded.stop();
    await assertPrivate(dataDir);
    const told = upgraded.output().match(/tightened the modes of \d+ /g) ?? [];
    assert.equal(told.length, 1, upgraded.output());
    assert.match(upgraded.output(), new RegExp(`tightened .*${dataDir}`));

    const next = await startCofferProcess({ dataDir, stack: embedded });
    await next.stop();
    assert.doesNotMatch(next.output(), /tightened/, 'nothing left to tighten');
  });
});
