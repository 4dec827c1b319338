/**
 * Issue 24, item 1: the CLI installs outside the repository, as `npm install -g` of its packed
 * tarball, and works there: `--version` without a warning, `help`, and `serve` with its console
 * and SDK module. The install takes its dependencies' bytes from npm's cache, which the project's
 * own install filled (`--prefer-offline`; the registry still answers what versions exist).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { waitForReady } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** The npm that runs the tests (npm sets npm_execpath), else the machine's. */
const npmCli = process.env.npm_execpath;
const runNpm = (args: string[], cwd: string) =>
  npmCli ? run(process.execPath, [npmCli, ...args], { cwd }) : run('npm', args, { cwd });

// The packed package runs on the embedded defaults whichever pass runs this file: the embedded pass covers it.
describe('the installed package', {
  skip: currentStackName() === 'pg-s3' && 'stack-independent (runs in the embedded pass)',
}, () => {
  let dir: string;
  let coffer: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-cli-package-'));
    // No scripts: the console and SDK are built already (npm install / pretest), and rebuilding
    // them here would rewrite files other tests' servers are serving. lib/ (prepack's) is built
    // here instead: nothing else reads it.
    await run(process.execPath, [path.join(root, 'scripts', 'build-package.ts')], { cwd: root });
    const packed = await runNpm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    const prefix = path.join(dir, 'global');
    await runNpm(
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(dir, filename),
      ],
      dir,
    );
    coffer = path.join(prefix, 'bin', 'coffer');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** The installed command, run by this Node (24: the tests run on the pinned one) from a folder outside the repository. */
  const runCoffer = (...args: string[]) => run(process.execPath, [coffer, ...args], { cwd: dir });

  it('answers --version and help from the installed package, without a warning', async () => {
    const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
    const started = performance.now();
    const answer = await runCoffer('--version');
    console.log(`coffer --version took ${Math.round(performance.now() - started)} ms (installed)`);
    assert.deepEqual([answer.stdout, answer.stderr], [`coffer ${version}\n`, '']);
    const help = await runCoffer('help', 'files');
    assert.match(help.stdout, /coffer files /);
    assert.equal(help.stderr, '');
  });

  it('answers --help and files ls from the installed package without loading a server, store or driver', async () => {
    // Issue 43 item 5: what the installed lib/ loads, recorded by a --import hook (not timed).
    const hook = path.join(root, 'test', 'support', 'record-loaded-modules.ts');
    const heavy =
      /\/node_modules\/(fastify|sharp|@aws-sdk|pg|kysely|nodemailer)\/|\/lib\/(main|services)\.js$/;
    for (const args of [['--help'], ['files', 'ls']]) {
      const file = path.join(dir, `loaded-${args.join('-')}.txt`);
      const env = { ...process.env, HOME: dir, COFFER_LOADED_MODULES_FILE: file };
      await run(process.execPath, ['--import', hook, coffer, ...args], { cwd: dir, env }).catch(
        () => undefined,
      );
      const loaded = (await readFile(file, 'utf8')).split('\n');
      assert.ok(
        loaded.some((url) => url.endsWith('/lib/cli/main.js')),
        `${args.join(' ')} ran the installed lib/`,
      );
      assert.deepEqual(
        loaded.filter((url) => heavy.test(url)),
        [],
        args.join(' '),
      );
    }
  });

  it('serves from the installed package: the API, the console and the SDK module', async () => {
    const dataDir = path.join(dir, 'data');
    const child = spawn(process.execPath, [coffer, 'serve', '--data-dir', dataDir, '--port', '0'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const baseUrl = await waitForReady(child, () => output);
      for (const [page, type] of [
        ['/healthz', /json/],
        ['/console/', /html/],
        ['/sdk/coffer-client.js', /javascript/],
      ] as const) {
        const answer = await fetch(`${baseUrl}${page}`);
        await answer.arrayBuffer();
        assert.equal(answer.status, 200, page);
        assert.match(answer.headers.get('content-type') ?? '', type, page);
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
