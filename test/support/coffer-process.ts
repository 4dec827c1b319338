import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ApiClient, type AppCredentials } from './api-client.ts';
import { prepareTestStack, type TestStack } from './test-stack.ts';

/**
 * The `coffer` command: the run's bundle of src/ (COFFER_TEST_BIN, made by scripts/run-tests.js
 * with scripts/build-bundle.ts) when there is one, else bin/coffer.js.
 */
const bin = process.env.COFFER_TEST_BIN ?? path.resolve(import.meta.dirname, '../../bin/coffer.js');
const execFileAsync = promisify(execFile);

export type CofferProcess = {
  /** The stack's environment: give it to CLI commands that must reach the same stores. */
  env: Record<string, string>;
  baseUrl: string;
  dataDir: string;
  credentials: AppCredentials;
  client: ApiClient;
  /** The pid of the process `coffer serve` started: the supervising primary. */
  pid: number;
  /** Everything the server printed so far (its logs). */
  output(): string;
  /**
   * Waits until the output from character `from` on matches `pattern` (a log line to come);
   * answers the match. Worker pids are in the primary's lines (`"workerPid":123`).
   */
  waitForOutput(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
  /**
   * A crash: SIGKILLs the server and every process it started at one instant (nothing drains,
   * nothing is flushed), and resolves once they are all gone. The data dir and stack stay.
   */
  kill(): Promise<void>;
  /**
   * Starts `coffer serve` again with the same arguments on the same data dir and stack (after
   * kill() or stop()); the new process takes over cleaning up what this one would have.
   */
  restart(): Promise<CofferProcess>;
};

/**
 * Runs a `coffer` command the way a user does, answering its exit code and output. A command
 * still running after timeoutMs is stopped (SIGTERM) and answers code null: a `serve` that
 * should have refused to start does not hang the test. `input` is written to its stdin, which
 * then closes (a pipe, never a terminal).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { timeoutMs?: number; input?: string } = {},
) {
  try {
    const running = execFileAsync(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      timeout: options.timeoutMs ?? 0,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (options.input !== undefined) running.child.stdin?.end(options.input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | string | null; stdout: string; stderr: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : null,
      stdout: failed.stdout,
      stderr: failed.stderr,
    };
  }
}

/** Starts `coffer serve` as a child process through the CLI, on a free port and a fresh data dir. */
export async function startCofferProcess(
  options: {
    args?: string[];
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    /** Share one stack between servers (several nodes); by default each server gets its own. */
    stack?: TestStack;
    /** Another release's `bin/coffer.js` (test/ship/mixed-version.test.ts); by default this tree's. */
    bin?: string;
  } = {},
): Promise<CofferProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'coffer-e2e-')));
  const stack = options.stack ?? (await prepareTestStack());
  return launch({ ...options, dataDir, stack }, { stack: !options.stack, dataDir: !options.dataDir });
}

async function launch(
  options: { args?: string[]; env?: NodeJS.ProcessEnv; dataDir: string; stack: TestStack; bin?: string },
  owned: { stack: boolean; dataDir: boolean },
): Promise<CofferProcess> {
  const { dataDir, stack } = options;
  const child = spawn(
    process.execPath,
    [options.bin ?? bin, 'serve', '--data-dir', dataDir, '--port', '0', ...(options.args ?? [])],
    {
      env: { ...process.env, ...stack.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let baseUrl: string;
  let credentials: AppCredentials;
  try {
    baseUrl = await waitForReady(child, () => output);
    credentials = JSON.parse(await readFile(path.join(dataDir, 'default-project.json'), 'utf8'));
  } catch (error) {
    // Never leave a server behind: a live child keeps the test process from exiting.
    child.kill('SIGKILL');
    throw error;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let handedOver = false;
  return {
    baseUrl,
    dataDir,
    env: stack.env,
    credentials,
    client: new ApiClient(baseUrl, credentials),
    pid: child.pid!,
    output: () => output,
    waitForOutput: (pattern, from = 0) => waitForOutput(child, () => output.slice(from), pattern),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (handedOver) return;
      if (owned.stack) await stack.cleanup();
      if (owned.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
    kill: async () => {
      await killProcessTree(child.pid!);
      await exited;
    },
    restart: async () => {
      if (child.exitCode === null && child.signalCode === null)
        throw new Error('restart() needs kill() or stop() first');
      const next = await launch(options, owned);
      handedOver = true;
      return next;
    },
  };
}

function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output());
      if (!match) return;
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      clearTimeout(timer);
      resolve(match);
    };
    // Generous: a busy machine is slow, not wrong; a hung server still ends the test.
    const timer = setTimeout(() => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      reject(new Error(`coffer serve never printed ${pattern}:\n${output()}`));
    }, 90_000);
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

/**
 * SIGKILLs a process and all its descendants as one crash: each is stopped (SIGSTOP) before
 * its children are listed, so none can fork a replacement meanwhile, then all are killed.
 * Where Linux lists a process's children itself, the whole tree is stopped within the calling
 * tick: a request the workers are handling then gets no answer, however short it is.
 * Resolves once none of them runs any more (a zombie awaiting its reaper counts as gone).
 */
async function killProcessTree(rootPid: number): Promise<void> {
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index++) {
    signal(tree[index]!, 'SIGSTOP');
    tree.push(...(listChildrenNow(tree[index]!) ?? (await childrenOf(tree[index]!))));
  }
  for (const pid of tree) signal(pid, 'SIGKILL');
  for (const pid of tree) while (await isRunning(pid)) await delay(10);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Linux: the processes whose parent is `pid`, from /proc. */
export async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  // Elsewhere than Linux there is no /proc: only the root process is killed.
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The fields after the parenthesised command: state, then the parent's pid.
    const [, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(parent) === pid) children.push(Number(entry));
  }
  return children;
}

/**
 * Linux (CONFIG_PROC_CHILDREN): the children of `pid` from its threads' own lists, read
 * synchronously; undefined where the kernel keeps no such list.
 */
function listChildrenNow(pid: number): number[] | undefined {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch (error) {
    // A process already gone has no children left to stop.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(`/proc/${pid}`) ? [] : undefined;
  }
}

async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z' && state !== 'X';
}

export function waitForReady(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A hang guard, not a deadline: a busy machine starts slowly (the primary, then its worker).
    const timer = setTimeout(() => reject(new Error(`coffer serve did not get ready:\n${output()}`)), 90_000);
    const check = () => {
      const match = /Coffer (?:is )?ready at (http[^\s";]+)/.exec(output());
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coffer serve exited with ${code}:\n${output()}`));
    });
  });
}
