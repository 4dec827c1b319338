import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { format } from 'node:util';
import { loadAllCommands } from '../../src/cli/commands.ts';
import { main } from '../../src/cli/main.ts';
import { runCli } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

const commands = await loadAllCommands();

/**
 * What `coffer <argv>` prints and answers, run through the CLI's own entry in this process: a
 * `coffer` process costs about a CPU-second to start, and help has one page per command and
 * group (two spellings each). A few are also asked of real processes, which must print the same.
 */
async function runInProcess(argv: string[]): Promise<{ code: number; stdout: string }> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(`${format(...args)}\n`);
  try {
    return { code: await main(argv, {}), stdout: printed.join('') };
  } finally {
    console.log = log;
  }
}

// The same binary and pages on either stack: the embedded pass covers them.
describe('coffer help and version', {
  skip: currentStackName() === 'pg-s3' && 'stack-independent (runs in the embedded pass)',
}, () => {
  it('coffer --version and coffer version print the package version', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const args of [['--version'], ['version']]) {
      const printed = await runCli(args);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout.trim(), `coffer ${version}`);
    }
    assert.deepEqual(JSON.parse((await runCli(['--version', '--json'])).stdout), { version });
  });

  it('coffer help lists every command; help <command> and <command> --help list its flags', async () => {
    const all = await runCli(['help']);
    assert.equal(all.code, 0, all.stderr);
    for (const name of Object.keys(commands)) {
      const first = name.split(' ')[0]!;
      assert.match(all.stdout, new RegExp(`coffer ${first}`), name);
    }
    for (const name of Object.keys(commands)) {
      const viaHelp = await runInProcess(['help', ...name.split(' ')]);
      const viaFlag = await runInProcess([...name.split(' '), '--help']);
      assert.equal(viaHelp.code, 0, name);
      assert.equal(viaFlag.stdout, viaHelp.stdout, name);
      assert.match(viaHelp.stdout, new RegExp(`^Usage: coffer ${name} `), name);
      assert.ok(viaHelp.stdout.includes(commands[name]!.summary), name);
      for (const flag of commands[name]!.flags)
        assert.match(viaHelp.stdout, new RegExp(`--${flag} +\\S`), `${name} --${flag}`);
      assert.match(viaHelp.stdout, /--data-dir +\S/);
    }
    // Real processes print the same pages: a command of the server, an admin's, a client's.
    for (const name of ['serve', 'user create', 'files ls']) {
      assert.ok(commands[name], name);
      const [viaHelp, viaFlag] = await Promise.all([
        runCli(['help', ...name.split(' ')]),
        runCli([...name.split(' '), '--help']),
      ]);
      assert.equal(viaHelp.code, 0, `${name}: ${viaHelp.stderr}`);
      assert.equal(viaHelp.stdout, (await runInProcess(['help', ...name.split(' ')])).stdout, name);
      assert.equal(viaFlag.stdout, viaHelp.stdout, name);
    }
  });

  it("coffer help <group> and <group> --help list the group's commands with what each does", async () => {
    const groups = new Set(
      Object.keys(commands)
        .filter((name) => name.includes(' '))
        .map((name) => name.split(' ')[0]!),
    );
    assert.ok(groups.has('files') && groups.has('user'));
    for (const group of groups) {
      const viaHelp = await runInProcess(['help', group]);
      const viaFlag = await runInProcess([group, '--help']);
      assert.equal(viaHelp.code, 0, group);
      assert.equal(viaFlag.stdout, viaHelp.stdout, group);
      for (const [name, command] of Object.entries(commands).filter(([name]) =>
        name.startsWith(`${group} `),
      )) {
        assert.ok(viaHelp.stdout.includes(`coffer ${name}`), name);
        assert.ok(viaHelp.stdout.includes(command.summary), name);
      }
    }
    const viaProcess = await runCli(['files', '--help']);
    assert.equal(viaProcess.code, 0, viaProcess.stderr);
    assert.equal(viaProcess.stdout, (await runInProcess(['help', 'files'])).stdout);
  });

  it('usage errors exit 2 with one line; with --json, {code, message} alone', async () => {
    for (const args of [[], ['frobnicate'], ['user'], ['help', 'frobnicate'], ['user', 'create', '--nope']]) {
      const wrong = await runCli([...args, '--json']);
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.stderr}`);
      const answer = JSON.parse(wrong.stdout);
      assert.deepEqual(Object.keys(answer).sort(), ['code', 'message'], args.join(' '));
      assert.equal(answer.code, 'INVALID_INVOCATION');
      assert.doesNotMatch(answer.message, /\n|Usage/);
      assert.equal(wrong.stderr.trim().split('\n').length, 1, wrong.stderr);
    }
  });
});
