import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { mediaUnreadable } from '../errors/errors.ts';

/** Where the runner writes what a tool said when it failed (pino's `warn(object, message)`). */
export type MediaLog = { warn(details: object, message: string): void };

/** One run of a tool over a file Coffer made. */
export type ToolRun = {
  /** The tool's absolute path (resolved at start, media-tools.ts). */
  tool: string;
  /** Built by Coffer from its own paths and numbers: nothing read from the media goes here. */
  args: readonly string[];
  /** A private directory: a tool that writes beside its input writes here. */
  cwd: string;
  /** The address space the tool may map (prlimit --as). */
  memoryBytes: number;
  /** Wall time; past it the tool's process group is killed. CPU time is capped at the same. */
  timeoutSeconds: number;
  /** Past this much output on stdout the tool is killed. */
  maxStdoutBytes: number;
  /** The largest file the tool may write (prlimit --fsize); unset: the same as maxStdoutBytes. */
  maxFileBytes?: number;
  signal?: AbortSignal;
};

/**
 * security: the tools see no secret of the server's (its environment holds database and S3
 * credentials), no locale files or plugins named by the caller, and no terminal.
 */
export const toolEnvironment = Object.freeze({ LC_ALL: 'C', PATH: '/usr/bin:/bin' });

/** What a failed tool's stderr keeps for the log (the answer never carries it: it can hold paths). */
const maxStderrBytes = 16 * 1024;

/**
 * The one place that starts media tools (issue 39, "Untrusted media in a box"): each in its own
 * process group under `prlimit` (address space and CPU time), with a wall-time limit enforced by
 * SIGKILL, stdin closed, stdout and stderr capped. Any way a run fails (exit status, signal,
 * timeout, too much output, no start) ends that job with 422 MEDIA_UNREADABLE, never the server.
 */
export class ToolRunner {
  readonly #prlimitPath: string;
  readonly #log: MediaLog;
  readonly #running = new Set<ChildProcess>();

  constructor(options: { prlimitPath: string; log: MediaLog }) {
    this.#prlimitPath = options.prlimitPath;
    this.#log = options.log;
  }

  /** The tool's stdout, once it has exited with status 0. */
  run(run: ToolRun): Promise<Buffer> {
    const name = path.basename(run.tool);
    const limits = [
      `--as=${Math.floor(run.memoryBytes)}`,
      `--cpu=${Math.max(1, Math.ceil(run.timeoutSeconds))}`,
      `--fsize=${Math.floor(run.maxFileBytes ?? run.maxStdoutBytes)}`,
    ];
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        // No shell: the argv goes to execve as it is. prlimit execs the tool in its own process.
        child = spawn(this.#prlimitPath, [...limits, '--', run.tool, ...run.args], {
          cwd: run.cwd,
          env: toolEnvironment,
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group: a kill reaches anything the tool started (a script's children).
          detached: true,
        });
      } catch (error) {
        this.#log.warn({ tool: name, err: error }, 'A media tool could not be started');
        reject(mediaUnreadable(`${name} could not be started`));
        return;
      }
      this.#running.add(child);
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      let stderr = Buffer.alloc(0);
      let failure: string | undefined;
      const stop = (reason: string) => {
        failure ??= reason;
        killGroup(child);
      };
      const timer = setTimeout(
        () => stop(`${name} ran past its time limit of ${run.timeoutSeconds} s`),
        run.timeoutSeconds * 1000,
      );
      const onAbort = () => stop(`${name} was stopped`);
      run.signal?.addEventListener('abort', onAbort, { once: true });
      if (run.signal?.aborted) onAbort();
      child.stdout!.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > run.maxStdoutBytes) stop(`${name} wrote more than ${run.maxStdoutBytes} bytes`);
        else stdout.push(chunk);
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr.length < maxStderrBytes)
          stderr = Buffer.concat([stderr, chunk]).subarray(0, maxStderrBytes);
      });
      child.stdout!.on('error', (error) => stop(`${name}'s output failed (${error.message})`));
      child.stderr!.on('error', (error) => stop(`${name}'s output failed (${error.message})`));
      let startError: Error | undefined;
      child.on('error', (error) => {
        startError = error;
        stop(`${name} could not be started`);
        // A failed spawn emits no exit: settle here.
        if (child.pid === undefined) settle(null, null);
      });
      // Whatever the tool left running in its group dies with it, so stdout closes.
      child.on('exit', () => killGroup(child));
      child.on('close', (code, signal) => settle(code, signal));
      let settled = false;
      const settle = (code: number | null, signal: NodeJS.Signals | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        run.signal?.removeEventListener('abort', onAbort);
        this.#running.delete(child);
        if (failure === undefined && code !== 0)
          failure = signal ? `${name} was ended by ${signal}` : `${name} failed (exit status ${code})`;
        if (failure === undefined) return resolve(Buffer.concat(stdout));
        this.#log.warn(
          { tool: name, exitCode: code, signal, stderr: stderr.toString('utf8').trim(), err: startError },
          `A media tool failed: ${failure}`,
        );
        reject(mediaUnreadable(failure));
      };
    });
  }

  /** Kills every tool still running (at shutdown). */
  close(): void {
    for (const child of this.#running) killGroup(child);
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone (ESRCH): nothing to end.
  }
}
