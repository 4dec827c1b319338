import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApiClient, type AppCredentials } from './api-client.ts';
import { prepareTestStack, type TestStack } from './test-stack.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/coffer.js');
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
};

/**
 * Runs a `coffer` command the way a user does, answering its exit code and output. A command
 * still running after timeoutMs is stopped (SIGTERM) and answers code null: a `serve` that
 * should have refused to start does not hang the test.
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { timeoutMs?: number } = {},
) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      timeout: options.timeoutMs ?? 0,
    });
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
  } = {},
): Promise<CofferProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'coffer-e2e-')));
  const stack = options.stack ?? (await prepareTestStack());
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--data-dir', dataDir, '--port', '0', ...(options.args ?? [])],
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
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.stack) await stack.cleanup();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
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

function waitForReady(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A hang guard, not a deadline: a busy machine starts slowly (the primary, then its worker).
    const timer = setTimeout(() => reject(new Error(`coffer serve did not get ready:\n${output()}`)), 90_000);
    const check = () => {
      const match = /Coffer ready at (\S+?)"/.exec(output());
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
