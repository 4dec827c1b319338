import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName, type TestStack } from '../support/test-stack.ts';

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

describe('coffer import and export --verify check every verified file against its record', {
  skip: currentStackName() === 'pg-s3' && 'the embedded stores: runs in the embedded pass',
}, () => {
  const embedded: TestStack = { name: 'embedded', settings: {}, env: {}, cleanup: async () => {} };
  let work: string;
  let pristine: string;
  let files: { id: string; blob: string }[];
  let copies = 0;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-import-bytes-'));
    const dataDir = path.join(work, 'source');
    const server = await startCofferProcess({ dataDir, stack: embedded });
    try {
      const alice = await server.client.signup();
      files = [];
      for (const name of ['first.bin', 'second.bin']) {
        const record = await server.client.uploadFile(alice.token, name, randomBytes(65536));
        files.push({ id: record._id, blob: path.join('blobs', server.credentials.projectId, record._id) });
      }
    } finally {
      await server.stop();
    }
    pristine = path.join(work, 'export');
    const exported = await runCli(['export', '--out', pristine, '--data-dir', dataDir]);
    assert.equal(exported.code, 0, exported.stderr);
    // In the export's order (by id), which is the order the checks go.
    const metadata = await readFile(path.join(pristine, 'metadata.ndjson'), 'utf8');
    files.sort((a, b) => metadata.indexOf(`"id":"${a.id}"`) - metadata.indexOf(`"id":"${b.id}"`));
  });
  after(() => rm(work, { recursive: true, force: true }));

  /** A copy of the export, damaged by `damage`. */
  async function damagedExport(damage: (dir: string) => Promise<void>): Promise<string> {
    const dir = path.join(work, `copy-${++copies}`);
    await cp(pristine, dir, { recursive: true });
    await damage(dir);
    return dir;
  }

  async function flipByte(file: string, at: number): Promise<void> {
    const bytes = await readFile(file);
    bytes[at]! ^= 0xff;
    await writeFile(file, bytes);
  }

  async function withoutRecordedSha256(dir: string): Promise<void> {
    const metadata = path.join(dir, 'metadata.ndjson');
    const lines = (await readFile(metadata, 'utf8')).split('\n').map((line) => {
      if (!line.includes('"table":"files"')) return line;
      const parsed = JSON.parse(line);
      return JSON.stringify({ ...parsed, row: { ...parsed.row, content_sha256: null } });
    });
    await writeFile(metadata, lines.join('\n'));
  }

  it('export --verify passes an intact export and counts it', async () => {
    const result = await runCli(['export', '--verify', pristine, '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).blobs, 2);
  });

  const cases = [
    {
      name: 'a blob cut to 16 bytes',
      damage: (dir: string) => truncate(path.join(dir, files[1]!.blob), 16),
      names: () => files[1]!,
      says: /are 16 bytes; its record says 65536/,
    },
    {
      name: 'a blob with one byte flipped',
      damage: (dir: string) => flipByte(path.join(dir, files[1]!.blob), 30_000),
      names: () => files[1]!,
      says: /SHA-256 .*its record's SHA-256/,
    },
    {
      name: 'a flipped byte in a file whose record has no SHA-256 (a direct upload without one)',
      damage: async (dir: string) => {
        await withoutRecordedSha256(dir);
        await flipByte(path.join(dir, files[0]!.blob), 0);
      },
      names: () => files[0]!,
      says: /SHA-256 .*the SHA-256 the export measured/,
    },
    {
      name: 'two damaged blobs: the first is named',
      damage: async (dir: string) => {
        await truncate(path.join(dir, files[0]!.blob), 1);
        await truncate(path.join(dir, files[1]!.blob), 2);
      },
      names: () => files[0]!,
      says: /are 1 bytes/,
    },
  ];
  for (const { name, damage, names, says } of cases) {
    it(`${name}: export --verify and import refuse it, naming the file, and write nothing`, async () => {
      const dir = await damagedExport(damage);
      const { id, blob } = names();
      const verified = await runCli(['export', '--verify', dir]);
      assert.equal(verified.code, 2, verified.stderr);
      assert.ok(verified.stderr.includes(path.join(dir, blob)), verified.stderr);
      assert.ok(verified.stderr.includes(id), verified.stderr);
      assert.match(verified.stderr, says);

      const target = path.join(work, `target-${copies}`);
      const imported = await runCli(['import', '--in', dir, '--data-dir', target]);
      assert.equal(imported.code, 2, imported.stderr);
      assert.ok(imported.stderr.includes(path.join(dir, blob)), imported.stderr);
      assert.match(imported.stderr, says);
      assert.equal(existsSync(target), false, 'nothing was written: not even the target data dir');
    });
  }

  it('export takes --verify or --out, not both', async () => {
    const result = await runCli(['export', '--verify', pristine, '--out', path.join(work, 'both')]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--verify/);
  });
});
