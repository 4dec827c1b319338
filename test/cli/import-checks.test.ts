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

describe('coffer import of an export written before app_credentials existed', {
  skip: currentStackName() === 'pg-s3' && 'the embedded target: runs in the embedded pass',
}, () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-import-'));
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('gives each project its first app credential back, never one that was revoked', async () => {
    const source = path.join(work, 'source');
    const cli = async (...args: string[]) => {
      const result = await runCli([...args, '--json']);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout);
    };
    const kept = await cli('project', 'create', 'kept', '--data-dir', source);
    const rotated = await cli('project', 'create', 'rotated', '--data-dir', source);
    await cli('app', 'create', '--project', 'rotated', '--data-dir', source);
    await cli('app', 'revoke', '--project', 'rotated', rotated.appId, '--data-dir', source);
    const exportDir = path.join(work, 'export');
    await cli('export', '--out', exportDir, '--data-dir', source);
    // The older format: the same lines without the app_credentials table.
    const metadata = path.join(exportDir, 'metadata.ndjson');
    const lines = (await readFile(metadata, 'utf8')).split('\n');
    await writeFile(metadata, lines.filter((line) => !line.includes('"table":"app_credentials"')).join('\n'));

    const target = path.join(work, 'target');
    await cli('import', '--in', exportDir, '--data-dir', target);
    const apps = async (project: string) =>
      (await cli('app', 'list', '--project', project, '--data-dir', target)).apps.map(
        (app: { appId: string }) => app.appId,
      );
    assert.deepEqual(await apps('kept'), [kept.appId]);
    assert.deepEqual(await apps('rotated'), []);
  });
});
