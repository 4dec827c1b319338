import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { loadAllCommands } from '../../src/cli/commands.ts';
import { runCli } from '../support/coffer-process.ts';

const commands = await loadAllCommands();

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
  // Two commands (four CLI processes) at a time: each process loads the whole CLI (about a
  // CPU-second), and there are many commands.
  const answers = await inBatches(Object.keys(commands), 2, async (name) => ({
    name,
    viaHelp: await runCli(['help', ...name.split(' ')]),
    viaFlag: await runCli([...name.split(' '), '--help']),
  }));
  for (const { name, viaHelp, viaFlag } of answers) {
    assert.equal(viaHelp.code, 0, `${name}: ${viaHelp.stderr}`);
    assert.equal(viaFlag.stdout, viaHelp.stdout, name);
    assert.match(viaHelp.stdout, new RegExp(`^Usage: coffer ${name} `), name);
    assert.ok(viaHelp.stdout.includes(commands[name]!.summary), name);
    for (const flag of commands[name]!.flags)
      assert.match(viaHelp.stdout, new RegExp(`--${flag} +\\S`), `${name} --${flag}`);
    assert.match(viaHelp.stdout, /--data-dir +\S/);
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
    const viaHelp = await runCli(['help', group]);
    const viaFlag = await runCli([group, '--help']);
    assert.equal(viaHelp.code, 0, `${group}: ${viaHelp.stderr}`);
    assert.equal(viaFlag.stdout, viaHelp.stdout, group);
    for (const [name, command] of Object.entries(commands).filter(([name]) => name.startsWith(`${group} `))) {
      assert.ok(viaHelp.stdout.includes(`coffer ${name}`), name);
      assert.ok(viaHelp.stdout.includes(command.summary), name);
    }
  }
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

/** Runs `each` over the items, `width` at a time, answering the results in the items' order. */
async function inBatches<T, R>(items: T[], width: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width)
    results.push(...(await Promise.all(items.slice(start, start + width).map(each))));
  return results;
}
