import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchOptions } from '../bench-options.ts';
import type { MemoryResult } from '../memory/measure-transfer-memory.ts';
import type { ScenarioResult } from '../run-scenario.ts';

/** Everything one run produced: what bench/results/*.json holds and the docs are written from. */
export type BenchReport = {
  startedAt: string;
  finishedAt: string;
  command: string;
  options: BenchOptions;
  machine: { cpu: string; cores: number; ramGiB: number; node: string; os: string };
  commit: string;
  scenarios: ScenarioResult[];
  notes: string[];
  memory?: MemoryResult;
};

export function describeMachine(): BenchReport['machine'] {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    ramGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

/** The commit the run measured, marked when the work tree had changes. */
export function describeCommit(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Writes the report under bench/results/ (gitignored) and answers the file's path. */
export async function writeReport(report: BenchReport): Promise<string> {
  const dir = path.resolve(import.meta.dirname, '../results');
  await mkdir(dir, { recursive: true });
  const only = report.options.only.join('+');
  // A long --only list would pass the file system's 255-byte name limit (ENAMETOOLONG).
  const mode = report.options.smoke
    ? 'smoke'
    : only.length > 0
      ? `${only.slice(0, 120)}${only.length > 120 ? `+${report.options.only.length}-scenarios` : ''}`
      : 'full';
  // The smoke runs of both stacks start together (run-smoke.ts): the stack keeps their names apart.
  const stack = report.options.stack === 'sqlite-fs' ? '' : `-${report.options.stack}`;
  const file = path.join(dir, `${report.startedAt.replace(/[:.]/g, '-')}-${mode}${stack}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
