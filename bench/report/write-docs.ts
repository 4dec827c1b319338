import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchReport } from './bench-report.ts';
import { toRatioChartSvg } from './ratio-chart.ts';
import { toMarkdownTable, toMemoryRows, toScenarioRows } from './result-table.ts';

const docsDir = path.resolve(import.meta.dirname, '../../docs');
const start = '<!-- bench:latest:start -->';
const end = '<!-- bench:latest:end -->';

/**
 * Rewrites the "latest figures" block of docs/benchmarks.md (between its markers; the rest of
 * the page is prose kept by hand) and the ratio chart beside it.
 */
export async function writeDocs(report: BenchReport, resultsFile: string): Promise<void> {
  const { machine } = report;
  const caption = `${report.startedAt.slice(0, 10)} · commit ${report.commit} · ${machine.cores} cores · Node ${machine.node}`;
  await writeFile(path.join(docsDir, 'benchmarks-ratios.svg'), toRatioChartSvg(report.scenarios, caption));
  const block = [
    start,
    `Run of ${report.startedAt} (commit ${report.commit}), \`${report.command}\`: ${report.options.rounds} rounds,`,
    `${report.options.durationSeconds} s per request-rate run, ${report.options.connections} connections.`,
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, Node ${machine.node}, ${machine.os}.`,
    `Sizes: large transfers ${mib(report.options.largeBytes)} (${report.options.largeRequests} a round, one connection),`,
    `memory transfers ${mib(report.options.memoryBytes)}, many records ${report.options.manyRecords.toLocaleString('en')}.`,
    `Raw figures: \`bench/results/${path.basename(resultsFile)}\` (not committed).`,
    ...report.notes.map((note) => `Note: ${note}.`),
    '',
    toMarkdownTable(toScenarioRows(report.scenarios)),
    '',
    ...(report.memory
      ? ['Server RSS during one streamed transfer:', '', toMarkdownTable(toMemoryRows(report.memory)), '']
      : []),
    '![Ratios of Coffer to its baselines](benchmarks-ratios.svg)',
    end,
  ].join('\n');
  const file = path.join(docsDir, 'benchmarks.md');
  const page = await readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  const updated =
    from !== -1 && to > from
      ? `${page.slice(0, from)}${block}${page.slice(to + end.length)}`
      : `${page.trimEnd()}\n\n## Latest figures\n\n${block}\n`;
  await writeFile(file, updated);
}

function mib(bytes: number): string {
  return `${bytes / 2 ** 20} MiB`;
}
