import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server process the bench started, and how to stop it. */
export type ChildServer = { url: string; pid: number; stop: () => Promise<void> };

/**
 * Spawns a server in its own process (so the load generator and the server never share an
 * event loop) and waits for the log line that carries its URL. Its output goes to a file,
 * not a pipe: draining a pipe would cost the load generator CPU on every logged request.
 */
export async function startChildServer(options: {
  command: string;
  args: string[];
  /** Where stdout and stderr go; also searched for the ready line. */
  logPath: string;
  /**
   * How to tell the server is ready: a log line whose group 1 is the base URL, or a base URL
   * known in advance and a path on it that answers 200 once the server serves (whatever it logs).
   */
  ready: RegExp | { url: string; path: string };
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<ChildServer> {
  const log = openSync(options.logPath, 'a');
  const child = spawn(options.command, options.args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A server that dies under load would otherwise only show up as "fetch failed" everywhere after.
  child.once('exit', (code, signal) => {
    if (!stopping)
      reportUnexpectedExit(options.logPath, `${options.args.join(' ')} (pid ${child.pid})`, code, signal);
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // A server that does not drain within 15 s (a stuck upload) is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    const url = await readyUrl(options.ready, options.logPath);
    if (url) return { url, pid: child.pid!, stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error(
    `${options.args.join(' ')} did not get ready:\n${readFileSync(options.logPath, 'utf8').slice(-2000)}`,
  );
}

async function readyUrl(ready: RegExp | { url: string; path: string }, logPath: string) {
  if (ready instanceof RegExp) return ready.exec(readFileSync(logPath, 'utf8'))?.[1];
  const answer = await fetch(`${ready.url}${ready.path}`).catch(() => undefined);
  await answer?.arrayBuffer();
  return answer?.status === 200 ? ready.url : undefined;
}

/** Says so on stderr with the end of the server's log, and keeps that end in bench/results/. */
function reportUnexpectedExit(
  logPath: string,
  what: string,
  code: number | null,
  signal: string | null,
): void {
  const tail = readFileSync(logPath, 'utf8').slice(-20_000);
  const kept = path.resolve(
    import.meta.dirname,
    '../results',
    `exit-${Date.now()}-${path.basename(logPath)}`,
  );
  mkdirSync(path.dirname(kept), { recursive: true });
  writeFileSync(kept, tail);
  console.error(`\n${what} exited unexpectedly (code ${code}, signal ${signal}); end of its log in ${kept}:`);
  console.error(tail.split('\n').slice(-15).join('\n'));
}
