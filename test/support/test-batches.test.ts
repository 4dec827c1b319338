import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error: a plain JS module of the test runner, without types.
import { needsOwnProcess, planUnits } from '../../scripts/test-batches.js';

/**
 * Issue 44, item 7: which test files share a process (node --test --test-isolation=none) and
 * which keep one of their own, because sharing would change what they do.
 */
describe('test batches', () => {
  let dir = '';
  const file = async (name: string, source: string) => {
    const where = path.join(dir, name);
    await writeFile(where, source);
    return where;
  };
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-test-batches-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a file with a hook or an await at its top level keeps a process of its own', async () => {
    const hook = await file('hook.test.ts', "import { after } from 'node:test';\nafter(() => {});\n");
    const each = await file('each.test.ts', 'beforeEach(() => {});\n');
    const awaited = await file('awaited.test.ts', 'const server = await startPostgres();\n');
    const bare = await file('bare.test.ts', 'await mkdir(dir);\n');
    for (const own of [hook, each, awaited, bare]) assert.equal(needsOwnProcess(own), true, own);
  });

  it('hooks and awaits inside a suite, or a word that only starts like one, do not', async () => {
    const nested = await file(
      'nested.test.ts',
      "describe('x', () => {\n  before(async () => {\n    await start();\n  });\n  after(() => {});\n});\n",
    );
    const named = await file('named.test.ts', 'afterwards();\nconst awaiting = 1;\n');
    for (const shared of [nested, named]) assert.equal(needsOwnProcess(shared), false, shared);
  });

  it('the files that check what a fresh process loads keep one of their own', () => {
    assert.equal(needsOwnProcess('test/api/server-start-loading.test.ts'), true);
    assert.equal(needsOwnProcess('test/cli/command-loading.test.ts'), true);
  });

  it('every file runs exactly once: the kill -9 suites first and alone, shared batches of at most six, the largest first', async () => {
    const shared = await Promise.all(
      Array.from({ length: 13 }, (_, index) =>
        file(
          `shared-${String(index).padStart(2, '0')}.test.ts`,
          `describe('x', () => {});\n${'//'.repeat(index)}\n`,
        ),
      ),
    );
    const own = await file('own.test.ts', `after(() => {});\n${'// padding\n'.repeat(200)}`);
    const crash = 'test/crash/kill-during-uploads.test.ts';
    const units: { files: string[]; shared: boolean }[] = planUnits([crash, ...shared, own]);
    assert.deepEqual(units.flatMap((unit) => unit.files).sort(), [crash, ...shared, own].sort());
    assert.deepEqual(units.slice(0, 2), [
      { files: [crash], shared: false },
      { files: [own], shared: false },
    ]);
    // 13 shared files: batches of 6, 6 and 1; a batch of one runs as a file of its own.
    assert.deepEqual(
      units.map((unit) => unit.files.length),
      [1, 1, 6, 6, 1],
    );
    assert.deepEqual(
      units.map((unit) => unit.shared),
      [false, false, true, true, false],
    );
  });

  it('with sharing turned off, every file has a process of its own, in the order given', async () => {
    const files = await Promise.all(
      ['b', 'a'].map((name) => file(`${name}.test.ts`, "describe('x', () => {});\n")),
    );
    assert.deepEqual(planUnits(files, false), [
      { files: [files[0]], shared: false },
      { files: [files[1]], shared: false },
    ]);
  });
});
