// Issue 44 item 5: the PostgreSQL + RGW stack is recorded too, a few rows at a time. A run that
// records merges the rows it measured into bench/recorded/<stack>.json and keeps the others,
// each row saying which run measured it (bench/report/previous-run.ts, bench-options.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parseBenchOptions } from '../../bench/bench-options.ts';
import type { BenchReport } from '../../bench/report/bench-report.ts';
import { readRecord, toChangeRows, writeRecord } from '../../bench/report/previous-run.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'coffer-record-merge-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function row(id: string, cpuRatio: number, extra: Record<string, unknown> = {}) {
  const side = { label: 'pg-s3', rounds: [], medianRate: 1, medianP50Ms: 1, medianP99Ms: 1 };
  return {
    id,
    title: id,
    unit: 'req/s',
    metric: 'rate',
    scenario: { ...side, cpuUsPerRequest: { server: 100 } },
    baselines: [
      { ...side, label: 'sqlite-fs', ratio: 1, cpuRatio, verdictBy: 'server CPU', verdictRatio: cpuRatio },
    ],
    ...extra,
  };
}

function run(startedAt: string, commit: string, scenarios: unknown[]): BenchReport {
  return { startedAt, commit, options: { stack: 'pg-s3' }, scenarios } as unknown as BenchReport;
}

test('a run with --only replaces its rows in the record and keeps the others with their own run', async () => {
  const file = path.join(dir, 'pg-s3.json');
  await writeRecord(
    run('2026-11-30T01:00:00.000Z', 'aaa1111', [row('get-file-pg-s3', 0.7), row('tus-upload', 0.9)]),
    file,
  );
  await writeRecord(
    run('2026-11-30T03:00:00.000Z', 'bbb2222', [
      row('get-file-pg-s3', 0.6),
      // Neither a skipped nor a failed row replaces what was recorded.
      { id: 'tus-upload', title: 'tus-upload', skipped: 'runs elsewhere' },
      { id: 'verify-pg-s3', title: 'verify-pg-s3', error: 'boom' },
    ]),
    file,
  );
  const record = await readRecord('pg-s3', file);
  assert.ok(record);
  const byId = Object.fromEntries(
    (record.scenarios as Array<ReturnType<typeof row> & { recorded: object }>).map((result) => [
      result.id,
      [result.baselines[0]!.cpuRatio, result.recorded],
    ]),
  );
  assert.deepEqual(byId, {
    'tus-upload': [0.9, { startedAt: '2026-11-30T01:00:00.000Z', commit: 'aaa1111' }],
    'get-file-pg-s3': [0.6, { startedAt: '2026-11-30T03:00:00.000Z', commit: 'bbb2222' }],
  });
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).options.stack, 'pg-s3');
  // A later run is compared, row by row, with the run that measured each row.
  const [, ...rows] = toChangeRows(
    run('2026-11-30T04:00:00.000Z', 'ccc3333', [row('tus-upload', 0.8)]),
    record,
  );
  assert.deepEqual(
    rows.map((cells) => [cells[0], cells.at(-2), cells.at(-1)]),
    [['tus-upload', '2026-11-30T01:00 aaa1111', 'WORSE by more than 5 %']],
  );
});

test('every pg-s3 run records, --only included; a smoke run or --no-record never does', () => {
  const record = (...argv: string[]) => parseBenchOptions(argv).record;
  assert.equal(record('--stack', 'pg-s3', '--only', 'get-file-pg-s3'), true);
  assert.equal(record('--stack', 'pg-s3'), true);
  assert.equal(record('--stack', 'pg-s3', '--no-record'), false);
  assert.equal(record('--stack', 'pg-s3', '--smoke'), false);
  // The embedded stack: a full run with docs records, as before; a run with --only when asked.
  assert.equal(record(), true);
  assert.equal(record('--only', 'get-file'), false);
  assert.equal(record('--only', 'get-file', '--record'), true);
});
