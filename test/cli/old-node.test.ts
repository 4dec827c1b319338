/**
 * Issue 43 item 5: on a Node older than 24.7 (the system's /usr/bin/node, where it is older),
 * `coffer` says in one line which Node it needs, and `npx coffer` prints no npm engine warning
 * (package.json declares no `engines`: docs/decisions.md).
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const systemNode = '/usr/bin/node';
const systemNpx = '/usr/bin/npx';
const systemMajor = existsSync(systemNode)
  ? Number(execFileSync(systemNode, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }))
  : undefined;
const skip =
  systemMajor === undefined || systemMajor >= 24 ? 'no system Node older than 24 at /usr/bin/node' : false;

/** Runs a command, its exit status included, without throwing. */
async function answer(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    const { stdout, stderr } = await run(file, args, options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('coffer on an older Node', { skip }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-old-node-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** bin/coffer.js and package.json at `packageDir`, without the pinned Node beside them. */
  async function placeLauncher(packageDir: string): Promise<string> {
    await mkdir(path.join(packageDir, 'bin'), { recursive: true });
    await copyFile(path.join(root, 'package.json'), path.join(packageDir, 'package.json'));
    await copyFile(path.join(root, 'bin', 'coffer.js'), path.join(packageDir, 'bin', 'coffer.js'));
    return path.join(packageDir, 'bin', 'coffer.js');
  }

  it('without the pinned Node, says in one line which Node it needs, and how to get it', async () => {
    for (const [packageDir, remedy] of [
      [path.join(dir, 'checkout'), /npm install fetches it into node_modules$/],
      [path.join(dir, 'global', 'node_modules', 'coffer'), /install Node\.js 24 \(https:\/\/nodejs\.org\)$/],
    ] as const) {
      const launcher = await placeLauncher(packageDir);
      const answered = await answer(systemNode, [launcher, 'files', 'ls'], { cwd: dir });
      assert.equal(answered.code, 1, answered.stderr);
      assert.equal(answered.stdout, '');
      const lines = answered.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, answered.stderr);
      assert.match(
        lines[0]!,
        /^coffer needs Node\.js 24\.7 or newer; this is v\d+\.\d+\.\d+ \(\/usr\/bin\/node\): /,
      );
      assert.match(lines[0]!, remedy);
    }
  });

  it('npx coffer in the repository runs on the pinned Node, without an npm engine warning', {
    skip: !existsSync(systemNpx) && 'no system npx',
  }, async () => {
    // The system's Node and npm first on PATH, as on a machine whose own Node is older.
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `/usr/bin:${process.env.PATH}` };
    for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
    const answered = await answer(systemNpx, ['coffer', 'help', 'files'], { cwd: root, env });
    assert.equal(answered.code, 0, answered.stderr);
    assert.match(answered.stdout, /coffer files share/);
    assert.doesNotMatch(answered.stderr, /EBADENGINE|Unsupported engine/);
    assert.equal(answered.stderr, '');
  });
});
