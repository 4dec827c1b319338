import {
  type MemoryResult,
  resumableSpeedShare,
  rssGrowthLimitMiB,
} from '../memory/measure-transfer-memory.ts';
import type { ScenarioResult, SideResult } from '../run-scenario.ts';
import { formatRatio } from './ratio-chart.ts';

const header = [
  'scenario',
  'coffer',
  'coffer p50 / p99',
  'coffer CPU/req',
  'baseline',
  'baseline CPU/req',
  'ratio',
  'CPU ratio',
  'target',
  'verdict',
];

/** One row per scenario × baseline: medians over the rounds, and the median per-round ratio. */
export function toScenarioRows(results: readonly ScenarioResult[]): string[][] {
  const rows = [header];
  for (const result of results) {
    const name = `${result.id}: ${result.title}`;
    if (result.skipped || result.error || !result.scenario || !result.baselines) {
      rows.push([
        name,
        result.skipped ? `skipped: ${result.skipped}` : `error: ${result.error}`,
        ...header.slice(2).map(() => ''),
      ]);
      continue;
    }
    const own = result.scenario;
    result.baselines.forEach((baseline, index) => {
      const target = index === 0 ? result.target : undefined;
      const latency = result.metric === 'p50' ? ` (p50 ${ms(baseline.medianP50Ms)})` : '';
      rows.push([
        index === 0 ? name : '',
        index === 0 ? `${rate(own.medianRate)} ${result.unit}` : '',
        index === 0 ? `${ms(own.medianP50Ms)} / ${ms(own.medianP99Ms)}${eventLoop(own)}` : '',
        index === 0 ? cpu(own) : '',
        `${baseline.label}: ${rate(baseline.medianRate)} ${result.unit}${latency}${eventLoop(baseline)}`,
        cpu(baseline),
        `${formatRatio(baseline.ratio)}${result.metric === 'p50' ? ' (p50)' : ''}`,
        baseline.cpuRatio === undefined ? '' : formatRatio(baseline.cpuRatio),
        target === undefined ? '' : `≥ ${target.toFixed(2)}×`,
        target === undefined
          ? ''
          : `${baseline.verdictRatio >= target ? 'meets' : 'BELOW'} (by ${baseline.verdictBy})`,
      ]);
    });
  }
  return rows;
}

export function toMemoryRows(memory: MemoryResult): string[][] {
  const size = `${Math.round(memory.sizeBytes / 2 ** 20)} MiB`;
  const rows = [['transfer', 'RSS before', 'RSS peak', 'growth', 'limit', 'verdict', 'speed']];
  if (memory.error) return [...rows, [`${size}`, `error: ${memory.error}`, '', '', '', '', '']];
  for (const [name, measured] of [
    ['upload', memory.upload],
    ['download', memory.download],
    ['resumable upload (5 MiB PATCHes)', memory.resumable],
  ] as const) {
    if (!measured) continue;
    rows.push([
      `${name} ${size}`,
      `${measured.rssBeforeMiB.toFixed(0)} MiB`,
      `${measured.rssPeakMiB.toFixed(0)} MiB`,
      `${measured.growthMiB.toFixed(1)} MiB`,
      `< ${rssGrowthLimitMiB} MiB`,
      measured.growthMiB < rssGrowthLimitMiB ? 'meets' : 'BELOW',
      `${measured.mibPerSecond.toFixed(0)} MiB/s${measured === memory.resumable ? toShareOfPut(memory) : ''}`,
    ]);
  }
  return rows;
}

/** A resumable upload's speed as a share of the one-shot PUT's: the median of pairs run together. */
function toShareOfPut(memory: MemoryResult): string {
  if (!memory.resumableShare) return '';
  const { median, rounds } = memory.resumableShare;
  const verdict = median >= resumableSpeedShare ? 'meets' : 'BELOW';
  const spread =
    rounds.length > 1
      ? `, median of ${rounds.length} pairs: ${rounds.map((r) => r.toFixed(2)).join(' ')}`
      : '';
  return ` (${median.toFixed(2)}× the PUT${spread}; ${verdict} ${resumableSpeedShare}×)`;
}

/** Columns padded for a terminal. */
export function toTextTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A GitHub-flavoured Markdown table. */
export function toMarkdownTable(rows: readonly string[][]): string {
  const [head, ...body] = rows;
  const line = (row: readonly string[]) =>
    `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head!), line(head!.map(() => '---')), ...body.map(line)].join('\n');
}

function rate(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1);
}

/** The event-loop delay beside a side's figures, where its scenario measures it. */
function eventLoop(side: SideResult): string {
  return side.eventLoop
    ? `; event loop p99 ${ms(side.eventLoop.medianP99Ms)}, max ${ms(side.eventLoop.maxMs)}`
    : '';
}

/** A side's server CPU per request, and the load generator's beside it where it drove a server. */
function cpu(side: SideResult): string {
  const measured = side.cpuUsPerRequest;
  if (measured?.server === undefined) return 'not measured';
  const load = measured.loadGenerator === undefined ? '' : ` (load generator ${us(measured.loadGenerator)})`;
  return `${us(measured.server)}${load}`;
}

function us(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} ms` : `${Math.round(value)} µs`;
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}
