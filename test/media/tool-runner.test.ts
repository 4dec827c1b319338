import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../../src/errors/app-error.ts';
import { ToolRunner } from '../../src/media/tool-runner.ts';
import { FakeMediaTools } from '../support/fake-media-tools.ts';

// The one place that starts media tools (issue 39, "Untrusted media in a box"): every way a tool
// can fail ends its job with 422 MEDIA_UNREADABLE and a short detail, never the server.

const skip = existsSync('/usr/bin/prlimit') ? false : 'prlimit (util-linux) is not installed';
const mib = 1024 * 1024;

describe('ToolRunner', { skip }, () => {
  const tools = new FakeMediaTools();
  const cwd = mkdtempSync(path.join(tmpdir(), 'coffer-runner-cwd-'));
  const logged: { details: object; message: string }[] = [];
  const runner = new ToolRunner({
    prlimitPath: '/usr/bin/prlimit',
    log: { warn: (details, message) => logged.push({ details, message }) },
  });
  const run = (
    tool: string,
    options: { timeoutSeconds?: number; memoryBytes?: number; maxStdoutBytes?: number } = {},
  ) =>
    runner.run({
      tool,
      args: [],
      cwd,
      memoryBytes: 512 * mib,
      timeoutSeconds: 10,
      maxStdoutBytes: mib,
      ...options,
    });
  after(() => {
    tools.remove();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** Asserts MEDIA_UNREADABLE whose message says `detail`, and no stderr text in it. */
  const unreadable = (detail: RegExp) => (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'MEDIA_UNREADABLE');
    assert.equal(error.statusCode, 422);
    assert.match(error.message, detail);
    assert.doesNotMatch(error.message, /secret path/);
    return true;
  };

  it('gives the stdout of a tool that exits 0, started with the argv as given and in the private cwd', async () => {
    const tool = tools.script('echo-args', 'pwd; for arg in "$@"; do echo "[$arg]"; done');
    const output = await runner.run({
      tool,
      args: ['a b', '$HOME', '-x;ls'],
      cwd,
      memoryBytes: 512 * mib,
      timeoutSeconds: 10,
      maxStdoutBytes: mib,
    });
    // No shell between: spaces, dollars and semicolons arrive as they are.
    assert.equal(output.toString(), `${cwd}\n[a b]\n[$HOME]\n[-x;ls]\n`);
  });

  it("gives the tool none of the server's environment: LC_ALL=C and a minimal PATH", async () => {
    process.env.COFFER_TEST_SECRET = 'do not pass me on';
    try {
      const output = (await run(tools.script('print-env', 'env'))).toString();
      const names = output
        .trim()
        .split('\n')
        .map((line) => line.split('=')[0])
        .sort();
      // PWD is the shell's own, set from the cwd.
      assert.deepEqual(names, ['LC_ALL', 'PATH', 'PWD']);
      assert.match(output, /^LC_ALL=C$/m);
      assert.match(output, /^PATH=\/usr\/bin:\/bin$/m);
      assert.doesNotMatch(output, /do not pass me on/);
    } finally {
      delete process.env.COFFER_TEST_SECRET;
    }
  });

  it('gives the tool no stdin', async () => {
    const output = await run(tools.script('read-stdin', 'cat; echo "read $?"'));
    assert.equal(output.toString(), 'read 0\n');
  });

  it('a tool that exits non-zero: MEDIA_UNREADABLE naming the status, its stderr only in the log', async () => {
    const tool = tools.script('fails', 'echo "cannot read /secret path/x" >&2; exit 3');
    await assert.rejects(run(tool), unreadable(/fails failed \(exit status 3\)/));
    const entry = logged.at(-1)!;
    assert.match(JSON.stringify(entry.details), /secret path/);
  });

  it('a tool that crashes: MEDIA_UNREADABLE naming the signal', async () => {
    await assert.rejects(
      run(tools.script('crashes', 'kill -SEGV $$')),
      unreadable(/crashes was ended by SIGSEGV/),
    );
  });

  it('a tool that hangs is killed at the time limit, with what it started', async () => {
    const pidFile = tools.file('sleeper.pid');
    // The shell's child sleeps on: only a kill of the whole group ends it.
    const tool = tools.script('hangs', `sleep 60 & echo $! > ${pidFile}; wait`);
    const started = Date.now();
    await assert.rejects(
      run(tool, { timeoutSeconds: 1 }),
      unreadable(/hangs ran past its time limit of 1 s/),
    );
    // Ended, not hung: the job answers long before the tool's 60 s would have.
    assert.ok(Date.now() - started < 30_000);
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !isRunning(sleeper));
  });

  it('a tool that writes past the output cap is killed', async () => {
    const tool = tools.script('floods', 'exec head -c 50000000 /dev/zero');
    await assert.rejects(
      run(tool, { maxStdoutBytes: 64 * 1024 }),
      unreadable(/floods wrote more than 65536 bytes/),
    );
  });

  it('a tool that writes a file past the file-size cap is ended (prlimit --fsize)', async () => {
    const tool = tools.script('fills-disk', `head -c 5000000 /dev/zero > ${tools.file('big')}`);
    await assert.rejects(run(tool, { maxStdoutBytes: 64 * 1024 }), unreadable(/fills-disk failed/));
  });

  it('a tool that allocates past its address space fails, and the same tool under it runs', {
    skip: existsSync('/usr/bin/python3') ? false : 'python3 is not installed',
  }, async () => {
    const allocate = (megabytes: number) =>
      tools.script(
        `allocates-${megabytes}`,
        `exec /usr/bin/python3 -c "b = bytearray(${megabytes} * 1024 * 1024); print(len(b))"`,
      );
    assert.equal((await run(allocate(10), { memoryBytes: 128 * mib })).toString(), `${10 * mib}\n`);
    await assert.rejects(run(allocate(600), { memoryBytes: 128 * mib }), unreadable(/allocates-600 failed/));
  });

  it('a tool that cannot be started: MEDIA_UNREADABLE', async () => {
    await assert.rejects(run(tools.file('no-such-tool')), unreadable(/no-such-tool failed/));
    const broken = new ToolRunner({ prlimitPath: tools.file('no-prlimit'), log: { warn: () => {} } });
    await assert.rejects(
      broken.run({
        tool: '/bin/true',
        args: [],
        cwd,
        memoryBytes: 512 * mib,
        timeoutSeconds: 10,
        maxStdoutBytes: mib,
      }),
      unreadable(/true could not be started/),
    );
  });

  it('close() kills the tools still running', async () => {
    const running = run(tools.script('waits', 'sleep 60'), { timeoutSeconds: 120 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    runner.close();
    await assert.rejects(running, unreadable(/waits was ended by SIGKILL/));
  });

  it('an aborted job kills its tool', async () => {
    const controller = new AbortController();
    const running = runner.run({
      tool: tools.script('aborted', 'sleep 60'),
      args: [],
      cwd,
      memoryBytes: 512 * mib,
      timeoutSeconds: 120,
      maxStdoutBytes: mib,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(running, unreadable(/aborted was stopped/));
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for `condition` (a killed process is gone once its parent or init has reaped it). */
async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(condition());
}
