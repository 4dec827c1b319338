/**
 * `npm run bench:smoke`: the smoke run (run-bench.ts --smoke) on both stacks at once. A smoke
 * run asserts answers, never timings (report/find-smoke-failures.ts), and each scenario's load
 * lasts a fixed second or two, so the two runs overlap those windows rather than queueing them.
 * They share no port, folder or cluster: each starts its servers on free ports in folders of
 * its own, and only the PostgreSQL + S3 run starts PostgreSQL and RGW. The embedded run prints
 * as it goes; the PostgreSQL + S3 run's output is kept and printed after it ends. Fails when
 * either fails. `COFFER_BENCH_SMOKE_ONE_AT_A_TIME=1` runs them one after the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const runBench = path.resolve(import.meta.dirname, 'run-bench.ts');
const passThrough = process.argv.slice(2);
const running = new Set<ChildProcess>();
let stopping = false;

// A SIGTERM reaches only this process (a Ctrl-C reaches the whole group): passed on, so that each
// run stops the servers and clusters it started (run-bench.ts) before this one ends.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopping = true;
    for (const child of running) child.kill(signal);
    process.exitCode = signal === 'SIGINT' ? 130 : 143;
  });

/** One smoke run as a child process; answers its exit code (a signal counts as a failure). */
async function smoke(stackArgs: string[], outputFile?: string): Promise<number> {
  const output = outputFile ? await open(outputFile, 'w') : undefined;
  try {
    const child = spawn(process.execPath, [runBench, '--smoke', ...stackArgs, ...passThrough], {
      stdio: ['ignore', output?.fd ?? 'inherit', output?.fd ?? 'inherit'],
    });
    running.add(child);
    return await new Promise<number>((resolve) => {
      child.on('error', (error) => {
        console.error(`bench smoke ${stackArgs.join(' ') || '(embedded)'}: ${error.message}`);
        resolve(1);
      });
      child.on('close', (code) => {
        running.delete(child);
        resolve(code ?? 1);
      });
    });
  } finally {
    await output?.close();
  }
}

let codes: number[];
if (process.env.COFFER_BENCH_SMOKE_ONE_AT_A_TIME === '1') {
  codes = [await smoke([])];
  if (!stopping) codes.push(await smoke(['--stack', 'pg-s3']));
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-smoke-'));
  const pgS3Output = path.join(dir, 'pg-s3.txt');
  try {
    codes = await Promise.all([smoke([]), smoke(['--stack', 'pg-s3'], pgS3Output)]);
    console.log('\n=== the PostgreSQL + S3 smoke run, run beside the embedded one ===\n');
    process.stdout.write(readFileSync(pgS3Output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// A signal's code (set above) stands: the runs it stopped failed because of it.
process.exitCode ??= codes.every((code) => code === 0) ? 0 : 1;
