// Issue 44's rule: every bench run is compared with bench/recorded/<stack>.json, and a row more
// than 5 % worse by its verdict metric is flagged (bench/report/previous-run.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { BenchReport } from '../../bench/report/bench-report.ts';
import { compareRow, readRecord, toChangeRows } from '../../bench/report/previous-run.ts';
import type { ScenarioResult } from '../../bench/run-scenario.ts';

type Row = NonNullable<ScenarioResult['baselines']>[number];

function side(serverUs: number) {
  return {
    label: 'coffer',
    rounds: [],
    medianRate: 1,
    medianP50Ms: 1,
    medianP99Ms: 1,
    cpuUsPerRequest: { server: serverUs },
  };
}

function row(fields: Partial<Row>): Row {
  const cpuRatio = fields.cpuRatio ?? 0.5;
  return {
    ...side(100),
    label: 'bare fastify',
    ratio: 0.3,
    cpuRatio,
    verdictBy: 'server CPU',
    verdictRatio: fields.verdictBy === 'rate' ? (fields.ratio ?? 0.3) : cpuRatio,
    ...fields,
  };
}

function report(
  rows: Array<{ id: string; serverUs: number; baseline: Row }>,
  startedAt: string,
): BenchReport {
  return {
    startedAt,
    commit: 'abc1234',
    options: { stack: 'sqlite-fs' },
    scenarios: rows.map(({ id, serverUs, baseline }) => ({
      id,
      title: id,
      unit: 'req/s',
      metric: 'rate',
      scenario: side(serverUs),
      baselines: [baseline],
    })),
  } as unknown as BenchReport;
}

const dir = mkdtempSync(path.join(tmpdir(), 'coffer-record-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a row more than 5 % worse by its verdict metric is flagged, one within 5 % is not', () => {
  assert.equal(compareRow(row({ cpuRatio: 0.5 }), row({ cpuRatio: 0.46 })).flagged, true);
  assert.equal(compareRow(row({ cpuRatio: 0.5 }), row({ cpuRatio: 0.48 })).flagged, false);
  assert.equal(compareRow(row({ cpuRatio: 0.5 }), row({ cpuRatio: 0.7 })).flagged, false);
});

test('the verdict metric decides: a better rate does not hide a worse CPU ratio, nor a costlier machine flag a row', () => {
  // Judged by server CPU: the rate ratio rose, the CPU ratio fell by 10 %.
  const worse = compareRow(row({ ratio: 0.3, cpuRatio: 0.5 }), row({ ratio: 0.4, cpuRatio: 0.45 }));
  assert.deepEqual(worse, { basis: 'server CPU', recorded: 0.5, now: 0.45, flagged: true });
  // Judged by rate on a machine with cores to spare: the rate ratio is what counts.
  const byRate = compareRow(
    row({ ratio: 0.3, cpuRatio: 0.5, verdictBy: 'rate' }),
    row({ ratio: 0.25, cpuRatio: 0.6, verdictBy: 'rate' }),
  );
  assert.equal(byRate.basis, 'rate');
  assert.equal(byRate.flagged, true);
});

test('a record judged on another basis is compared like with like', () => {
  // Recorded when the verdict was the rate; judged by server CPU now: CPU ratio against CPU ratio.
  const compared = compareRow(
    row({ ratio: 0.2, cpuRatio: 0.5, verdictBy: 'rate' }),
    row({ ratio: 0.1, cpuRatio: 0.5 }),
  );
  assert.deepEqual(compared, { basis: 'server CPU', recorded: 0.5, now: 0.5, flagged: false });
  // A record from before the CPU ratio existed: rate against rate.
  const { cpuRatio: _, verdictBy: __, verdictRatio: ___, ...old } = row({ ratio: 0.3 });
  assert.deepEqual(compareRow(old, row({ ratio: 0.2 })), {
    basis: 'rate',
    recorded: 0.3,
    now: 0.2,
    flagged: true,
  });
});

test('a run is compared with the record of its stack, whatever ran since', async () => {
  const file = path.join(dir, 'sqlite-fs.json');
  const recorded = report(
    [
      { id: 'get-file', serverUs: 100, baseline: row({ cpuRatio: 0.5 }) },
      { id: 'get-user', serverUs: 100, baseline: row({ cpuRatio: 0.5 }) },
    ],
    '2026-11-28T20:00:00.000Z',
  );
  writeFileSync(file, JSON.stringify(recorded));
  const record = await readRecord('sqlite-fs', file);
  assert.ok(record);
  assert.equal(await readRecord('pg-s3', file), undefined, "another stack's record is not this one's");
  const now = report(
    [
      // Coffer's CPU grew 20 % and so did the baseline's: the ratio held, nothing to flag.
      { id: 'get-file', serverUs: 120, baseline: row({ cpuRatio: 0.5 }) },
      { id: 'get-user', serverUs: 100, baseline: row({ cpuRatio: 0.4 }) },
      { id: 'new-row', serverUs: 100, baseline: row({}) },
    ],
    '2026-11-29T23:00:00.000Z',
  );
  const [header, ...rows] = toChangeRows(now, record);
  assert.equal(header!.at(-1), 'flag');
  assert.deepEqual(
    rows.map((cells) => [cells[0], cells[2], cells.at(-1)]),
    [
      ['get-file', 'server CPU', ''],
      ['get-user', 'server CPU', 'WORSE by more than 5 %'],
    ],
  );
  assert.deepEqual(toChangeRows(now, undefined).length, 1, 'no record, no rows');
});
