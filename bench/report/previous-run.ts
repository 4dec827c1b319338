/**
 * No silent regressions (issues 26 and 44): every run that is not a smoke run is compared, row
 * by row, with the record of its stack, bench/recorded/<stack>.json (committed, so every clone
 * compares with the same figures). A row is flagged when its verdict ratio (the metric its
 * target is judged on, bench/report/verdict.ts) is more than 5 % worse.
 *
 * A run that records (bench-options.ts: a full run with docs, every pg-s3 run, `--record`)
 * updates only the rows it measured: a run with `--only` replaces those rows and keeps the
 * others, each row saying when and at which commit it was measured (`recorded`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScenarioResult } from '../run-scenario.ts';
import type { BenchReport } from './bench-report.ts';
import type { VerdictBasis } from './verdict.ts';

/** How much worse a row may get before it is flagged. */
export const regressionTolerance = 0.05;

const recordedDir = path.resolve(import.meta.dirname, '../recorded');

type BaselineResult = NonNullable<ScenarioResult['baselines']>[number];
/** A row as an older record may hold it: before issue 26 a row had no verdict basis. */
type RecordedBaseline = Omit<BaselineResult, 'verdictRatio' | 'verdictBy'> &
  Partial<Pick<BaselineResult, 'verdictRatio' | 'verdictBy'>>;

/** The record a full run leaves for its stack (committed with the docs it writes). */
export function recordedFile(stack: string): string {
  return path.join(recordedDir, `${stack}.json`);
}

/** A recorded row: a scenario's result and the run that measured it. */
export type RecordedScenario = ScenarioResult & { recorded?: { startedAt: string; commit: string } };

/**
 * The record after this run: its measured rows (with their baselines; not the skipped or
 * failed ones) in place of the same rows of `previous`, whose other rows are kept as they were.
 */
export function mergeRecord(report: BenchReport, previous: BenchReport | undefined): BenchReport {
  const { startedAt, commit, machine, options } = report;
  const measured: RecordedScenario[] = report.scenarios
    .filter((result) => result.baselines && !result.skipped && !result.error)
    .map((result) => ({ ...result, recorded: { startedAt, commit } }));
  const ids = new Set(measured.map((result) => result.id));
  const kept = (previous?.scenarios ?? [])
    .filter((result) => !ids.has(result.id))
    .map((result: RecordedScenario) => ({
      ...result,
      recorded: result.recorded ?? { startedAt: previous!.startedAt, commit: previous!.commit },
    }));
  const scenarios = [...kept, ...measured];
  return { startedAt, commit, machine, options: { stack: options.stack }, scenarios } as BenchReport;
}

/** Writes the stack's record, this run's rows merged into what it held (mergeRecord). */
export async function writeRecord(
  report: BenchReport,
  file = recordedFile(report.options.stack),
): Promise<void> {
  const merged = mergeRecord(report, await readRecord(report.options.stack, file));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(merged, null, 2)}\n`);
}

/** The record of the stack, when there is one (a stack never recorded has none). */
export async function readRecord(
  stack: string,
  file = recordedFile(stack),
): Promise<BenchReport | undefined> {
  if (!existsSync(file)) return undefined;
  const read = JSON.parse(await readFile(file, 'utf8')) as Partial<BenchReport>;
  if (!read.scenarios || (read.options?.stack ?? 'sqlite-fs') !== stack) return undefined;
  return read as BenchReport;
}

export type RowComparison = { basis: VerdictBasis; recorded: number; now: number; flagged: boolean };

/**
 * One row against its record, on the basis the row is judged on now: the server-CPU ratio, or
 * the rate (or p50) ratio. Like is compared with like: a record measured before the CPU ratio
 * existed is compared by the rate ratio.
 */
export function compareRow(recorded: RecordedBaseline, now: BaselineResult): RowComparison {
  const byCpu =
    now.verdictBy === 'server CPU' && recorded.cpuRatio !== undefined && now.cpuRatio !== undefined;
  const basis: VerdictBasis = byCpu ? 'server CPU' : now.verdictBy === 'p50' ? 'p50' : 'rate';
  const then = byCpu ? recorded.cpuRatio! : recorded.ratio;
  const current = byCpu ? now.cpuRatio! : now.ratio;
  return { basis, recorded: then, now: current, flagged: current < then * (1 - regressionTolerance) };
}

/** One row per scenario × baseline measured in both: the verdict ratio, and Coffer's CPU per request, recorded and now. */
export function toChangeRows(report: BenchReport, record: BenchReport | undefined): string[][] {
  const rows = [
    [
      'scenario',
      'baseline',
      'by',
      'ratio recorded → now',
      'coffer CPU/req recorded → now',
      'recorded',
      'flag',
    ],
  ];
  for (const result of report.scenarios) {
    const recorded: RecordedScenario | undefined = record?.scenarios.find(
      (candidate) => candidate.id === result.id,
    );
    if (!recorded?.baselines || !result.baselines || !result.scenario) continue;
    for (const baseline of result.baselines) {
      const then = recorded.baselines.find((candidate) => candidate.label === baseline.label);
      if (!then) continue;
      const row = compareRow(then, baseline);
      const thenCpu = recorded.scenario?.cpuUsPerRequest?.server;
      const nowCpu = result.scenario.cpuUsPerRequest?.server;
      rows.push([
        result.id,
        baseline.label,
        row.basis,
        `${row.recorded.toFixed(2)}× → ${row.now.toFixed(2)}× (${percent(row.now / row.recorded - 1)})`,
        thenCpu && nowCpu
          ? `${Math.round(thenCpu)} → ${Math.round(nowCpu)} µs (${percent(nowCpu / thenCpu - 1)})`
          : '',
        `${(recorded.recorded?.startedAt ?? record!.startedAt).slice(0, 16)} ${recorded.recorded?.commit ?? record!.commit}`,
        row.flagged ? `WORSE by more than ${regressionTolerance * 100} %` : '',
      ]);
    }
  }
  return rows;
}

function percent(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`;
}
