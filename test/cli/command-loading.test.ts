/**
 * Issue 43 item 5: a call loads only what its command needs, so that `coffer --help` or
 * `coffer files ls` answers within a second. The test checks what was loaded (every module URL,
 * recorded by test/support/record-loaded-modules.ts), never how long it took.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commandTableMismatches } from '../../src/cli/commands.ts';

const root = path.resolve(import.meta.dirname, '../..');
const hook = path.join(root, 'test', 'support', 'record-loaded-modules.ts');

/** What no help and no client command (files …) loads: the server, the stores, the drivers, sharp, the S3 SDK. */
const heavy = [
  /\/node_modules\/fastify\//,
  /\/node_modules\/sharp\//,
  /\/node_modules\/@aws-sdk\//,
  /\/node_modules\/pg\//,
  /\/node_modules\/kysely\//,
  /\/node_modules\/nodemailer\//,
  /\/node_modules\/@simplewebauthn\//,
  /^node:sqlite$/,
  /\/src\/main\.ts$/,
  /\/src\/services\.ts$/,
  /\/src\/http\//,
  /\/src\/persistence\//,
];
/** What an admin command on the stores (project list, user list, audit) still leaves alone. */
const server = [heavy[0]!, heavy[1]!, heavy[2]!, heavy[5]!, heavy[6]!, ...heavy.slice(8, 11)];

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coffer-loading-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Runs `coffer <args>` (its exit status aside) and answers every module URL it loaded. */
async function loadedBy(args: string[]): Promise<string[]> {
  const file = path.join(dir, `loaded-${args.join('-').replaceAll('/', '_')}.txt`);
  const env = { ...process.env, HOME: dir, COFFER_LOADED_MODULES_FILE: file };
  await new Promise<void>((resolve) =>
    execFile(
      process.execPath,
      ['--import', hook, path.join(root, 'bin', 'coffer.js'), ...args],
      { env, cwd: dir },
      () => resolve(),
    ),
  );
  return (await readFile(file, 'utf8')).split('\n');
}

function assertNoneLoaded(loaded: string[], patterns: RegExp[], call: string): void {
  const found = loaded.filter((url) => patterns.some((pattern) => pattern.test(url)));
  assert.deepEqual(found.slice(0, 5), [], `coffer ${call} loaded ${found.length} modules it does not need`);
}

describe('what a coffer command loads', () => {
  it("names each command where its module's table holds it", async () => {
    assert.deepEqual(await commandTableMismatches(), []);
  });

  it('--help, help <group>, <command> --help and the files commands load no server, store or driver', async () => {
    for (const args of [
      ['--help'],
      ['help', 'files'],
      ['files', 'share', '--help'],
      ['files', 'ls'],
      ['files', 'upload', 'some-file'],
      ['files', 'find', '--name', 'abc'],
    ]) {
      const loaded = await loadedBy(args);
      assert.ok(
        loaded.some((url) => url.endsWith('/cli/main.ts')),
        `${args.join(' ')}: the hook saw the CLI`,
      );
      assertNoneLoaded(loaded, heavy, args.join(' '));
    }
  });

  it('project list, user list and audit load the stores but not the server, sharp or the S3 SDK', async () => {
    const dataDir = ['--data-dir', path.join(dir, 'data')];
    await loadedBy(['project', 'create', 'loading', ...dataDir]);
    for (const args of [
      ['project', 'list'],
      ['user', 'list', '--project', 'loading'],
      ['audit', 'loading'],
    ]) {
      const loaded = await loadedBy([...args, ...dataDir]);
      assert.ok(
        loaded.some((url) => /\/node_modules\/kysely\//.test(url)),
        `${args.join(' ')} read the database`,
      );
      assertNoneLoaded(loaded, server, args.join(' '));
    }
  });
});
