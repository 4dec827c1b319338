/**
 * `npm run bench` / `npm run bench:smoke`: starts Coffer (and its baselines) as separate
 * processes on loopback, runs every scenario of bench/scenarios.ts alternating with its
 * baselines, prints a table, writes bench/results/*.json and, on a full run, docs/benchmarks.md
 * and its chart. Options: `npm run bench -- --help`.
 */
import { BenchContext } from './bench-context.ts';
import { parseBenchOptions } from './bench-options.ts';
import { type MemoryResult, measureTransferMemory } from './memory/measure-transfer-memory.ts';
import { type BenchReport, describeCommit, describeMachine, writeReport } from './report/bench-report.ts';
import { findSmokeFailures } from './report/find-smoke-failures.ts';
import { readRecord, recordedFile, toChangeRows, writeRecord } from './report/previous-run.ts';
import { toMemoryRows, toScenarioRows, toTextTable } from './report/result-table.ts';
import { writeDocs } from './report/write-docs.ts';
import { runScenario, type ScenarioResult } from './run-scenario.ts';
import { scenarios } from './scenarios.ts';

const options = parseBenchOptions(process.argv.slice(2));
const known = [...scenarios.map((scenario) => scenario.id), 'memory'];
const unknown = options.only.filter((id) => !known.includes(id));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
const selected = scenarios.filter(
  (scenario) => options.only.length === 0 || options.only.includes(scenario.id),
);
const context = new BenchContext(options);
// Ctrl-C or a kill: stop the servers this run started before leaving (a SIGTERM left them all
// running). Not `once`: the PostgreSQL cluster's own handler (test/support) stops it and raises
// the signal again, which must not end this process before the Coffer servers and the S3
// server are stopped too.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void context.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
if (options.stack === 'pg-s3' && !(await context.stores.hasPostgres())) {
  // startPostgres has said why, loudly; a machine without PostgreSQL still passes the smoke run.
  await context.close();
  console.log('skipped: --stack pg-s3 needs PostgreSQL (apt-get install -y postgresql)');
  process.exit(0);
}

const startedAt = new Date().toISOString();
// Servers start when first needed and load src/ then: if it changes meanwhile, the report says so.
const commitAtStart = describeCommit();
const results: ScenarioResult[] = [];
let memory: MemoryResult | undefined;
try {
  for (const scenario of selected) {
    console.log(`▶ ${scenario.id}: ${scenario.title}`);
    results.push(await runScenario(scenario, context));
  }
  if (options.only.length === 0 || options.only.includes('memory')) {
    console.log(`▶ memory: server RSS during a ${options.memoryBytes / 2 ** 20} MiB upload and download`);
    memory = await measureTransferMemory(context);
  }
} finally {
  await context.close();
}

const commitAtEnd = describeCommit();
const report: BenchReport = {
  startedAt,
  finishedAt: new Date().toISOString(),
  command: `npm run bench${options.smoke ? ':smoke' : ''}${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  options,
  machine: describeMachine(),
  commit: commitAtEnd === commitAtStart ? commitAtStart : `${commitAtStart}, then ${commitAtEnd}`,
  scenarios: results,
  notes: context.notes,
  ...(memory && { memory }),
};
console.log(`\n${toTextTable(toScenarioRows(results))}`);
if (memory) console.log(`\n${toTextTable(toMemoryRows(memory))}`);
for (const note of context.notes) console.log(`note: ${note}`);
if (!options.smoke) {
  const record = await readRecord(options.stack);
  const changes = toChangeRows(report, record);
  const flagged = changes.filter((row) => row.at(-1)).length - 1;
  console.log(
    record && changes.length > 1
      ? `\nchange against ${recordedFile(options.stack)} (${record.startedAt.slice(0, 16)}, ${record.commit}): ${flagged} rows more than 5 % worse\n${toTextTable(changes)}`
      : `\nnothing to compare with: ${recordedFile(options.stack)} has none of these rows`,
  );
}
const file = await writeReport(report);
console.log(`\nresults: ${file}`);
if (options.writeDocs) {
  await writeDocs(report, file);
  console.log('docs: docs/benchmarks.md and docs/benchmarks-ratios.svg updated');
}
if (options.record) {
  await writeRecord(report);
  console.log(
    `record: ${recordedFile(options.stack)}, this run's rows (commit it from a run you trust: the next runs compare with it)`,
  );
}
if (options.smoke) {
  const failures = findSmokeFailures(report);
  for (const failure of failures) console.error(`FAIL ${failure}`);
  console.log(
    failures.length === 0
      ? 'smoke: every scenario ran and answered 2xx'
      : `smoke: ${failures.length} failures`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
}
