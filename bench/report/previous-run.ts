/**
 * No silent regressions (issue 26): each run is compared, scenario by scenario, with the
 * previous run that measured the same scenario on the same stack, from bench/results/ (this
 * machine's runs, newest first), else the record a full run leaves in bench/recorded/ (committed,
 * so a fresh clone compares too). A row that lost more than 5 % of its ratio or gained more than
 * 5 % of Coffer's CPU per request is flagged.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScenarioResult } from '../run-scenario.ts';
import type { BenchReport } from './bench-report.ts';

/** How much worse a row may get before it is flagged. */
export const regressionTolerance = 0.05;

const resultsDir = path.resolve(import.meta.dirname, '../results');
const recordedDir = path.resolve(import.meta.dirname, '../recorded');

type Earlier = { result: ScenarioResult; when: string; commit: string };

/** The record a full run leaves for its stack (committed with the docs it writes). */
export function recordedFile(stack: string): string {
  return path.join(recordedDir, `${stack}.json`);
}

export async function writeRecord(report: BenchReport): Promise<void> {
  const { startedAt, commit, machine, options, scenarios } = report;
  const kept = { startedAt, commit, machine, options: { stack: options.stack }, scenarios };
  await mkdir(recordedDir, { recursive: true });
  await writeFile(recordedFile(options.stack), `${JSON.stringify(kept, null, 2)}\n`);
}

/** For each scenario of `report`, the latest earlier measurement of it on the same stack. */
export async function findEarlier(report: BenchReport): Promise<Map<string, Earlier>> {
  const reports = await readEarlierReports(report);
  const earlier = new Map<string, Earlier>();
  for (const scenario of report.scenarios) {
    for (const previous of reports) {
      const result = previous.scenarios.find((candidate) => candidate.id === scenario.id);
      if (!result?.baselines) continue;
      earlier.set(scenario.id, { result, when: previous.startedAt, commit: previous.commit });
      break;
    }
  }
  return earlier;
}

async function readEarlierReports(report: BenchReport): Promise<BenchReport[]> {
  const files = existsSync(resultsDir)
    ? (await readdir(resultsDir))
        .filter((name) => name.endsWith('.json'))
        .map((name) => path.join(resultsDir, name))
    : [];
  if (existsSync(recordedFile(report.options.stack))) files.push(recordedFile(report.options.stack));
  const reports: BenchReport[] = [];
  for (const file of files) {
    const read = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Partial<BenchReport>;
    const stack = read.options?.stack ?? 'sqlite-fs';
    if (!read.startedAt || !read.scenarios || read.options?.smoke || stack !== report.options.stack) continue;
    if (read.startedAt >= report.startedAt) continue;
    reports.push(read as BenchReport);
  }
  return reports.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** One row per scenario × baseline measured both times: the ratio and Coffer's CPU per request, then and now. */
export function toChangeRows(report: BenchReport, earlier: Map<string, Earlier>): string[][] {
  const rows = [
    ['scenario', 'baseline', 'ratio before → now', 'coffer CPU/req before → now', 'before', 'flag'],
  ];
  for (const result of report.scenarios) {
    const previous = earlier.get(result.id);
    if (!previous || !result.baselines || !result.scenario) continue;
    for (const baseline of result.baselines) {
      const then = previous.result.baselines?.find((candidate) => candidate.label === baseline.label);
      if (!then) continue;
      // Older records have no verdict ratio: their rate ratio is compared with this one's.
      const thenRatio = then.verdictRatio ?? then.ratio;
      const nowRatio = then.verdictRatio === undefined ? baseline.ratio : baseline.verdictRatio;
      const thenCpu = previous.result.scenario?.cpuUsPerRequest?.server;
      const nowCpu = result.scenario.cpuUsPerRequest?.server;
      const ratioLoss = 1 - nowRatio / thenRatio;
      const cpuGain = thenCpu && nowCpu ? nowCpu / thenCpu - 1 : 0;
      const flagged = ratioLoss > regressionTolerance || cpuGain > regressionTolerance;
      rows.push([
        result.id,
        baseline.label,
        `${thenRatio.toFixed(2)}× → ${nowRatio.toFixed(2)}× (${percent(nowRatio / thenRatio - 1)})`,
        thenCpu && nowCpu ? `${Math.round(thenCpu)} → ${Math.round(nowCpu)} µs (${percent(cpuGain)})` : '',
        `${previous.when.slice(0, 16)} ${previous.commit}`,
        flagged ? `WORSE by more than ${regressionTolerance * 100} %` : '',
      ]);
    }
  }
  return rows;
}

function percent(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`;
}
