import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatPrettyLine, isPrettyLog } from './log-format.ts';

it('auto is pretty on a terminal only; json and pretty are what they say', () => {
  assert.equal(isPrettyLog('auto', { isTTY: true }), true);
  assert.equal(isPrettyLog('auto', { isTTY: false }), false);
  assert.equal(isPrettyLog('auto', {}), false);
  assert.equal(isPrettyLog('json', { isTTY: true }), false);
  assert.equal(isPrettyLog('pretty', { isTTY: false }), true);
});

it('formats a pino record as one readable line with its fields', () => {
  const line = formatPrettyLine({
    level: 40,
    time: Date.UTC(2026, 10, 23, 1, 2, 3, 4),
    pid: 1,
    msg: 'hello',
    workerPid: 7,
  });
  assert.match(line, /WARN.*hello.*"workerPid":7/);
  assert.doesNotMatch(line, /"pid"/);
  assert.equal(line.split('\n').filter(Boolean).length, 1);
});
