import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

/** Every file under `dir` with its bytes, to see that nothing changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = (await readFile(file)).toString('base64');
  }
  return files;
}

describe('coffer import checks its input before it touches the target', {
  skip: currentStackName() === 'pg-s3' && 'the embedded target: runs in the embedded pass',
}, () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-import-'));
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('import --in a missing directory creates no database in a new target', async () => {
    const target = path.join(work, 'new-target');
    const result = await runCli(['import', '--in', path.join(work, 'no-such-export'), '--data-dir', target]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(existsSync(target), false, 'the target data dir was not created');
  });

  it('import of a damaged export leaves an existing target as it was', async () => {
    const target = path.join(work, 'existing-target');
    const migrated = await runCli(['migrate', '--data-dir', target]);
    assert.equal(migrated.code, 0, migrated.stderr);
    const damaged = path.join(work, 'damaged');
    await mkdir(path.join(damaged, 'blobs', 'p1'), { recursive: true });
    await writeFile(path.join(damaged, 'blobs', 'p1', 'f1'), 'bytes');
    await writeFile(path.join(damaged, 'blobs', 'p1', 'f1.json'), '{"contentType":"text/plain"}');
    await writeFile(path.join(damaged, 'metadata.ndjson'), '{"table":"projects","row":{}}\nnot json\n');
    const before = await snapshot(target);

    const result = await runCli(['import', '--in', damaged, '--data-dir', target]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /metadata\.ndjson.*line 2/);
    assert.deepEqual(await snapshot(target), before, 'no blob, no row, no file written');
  });
});
