import assert from 'node:assert/strict';
import { it } from 'node:test';
import { maxRetryAfterSeconds, toRetryAfterSeconds } from './retry-after-seconds.ts';

it('reads Retry-After as delay-seconds or an HTTP-date, bounded to a day', () => {
  const now = new Date('2026-11-22T01:15:30.500Z');
  const cases: Array<[string | undefined, number | undefined]> = [
    ['120', 120],
    [' 0 ', 0],
    ['999999999', maxRetryAfterSeconds],
    ['Sun, 22 Nov 2026 01:16:00 GMT', 30],
    ['Sunday, 22-Nov-26 01:16:00 GMT', 30],
    ['Sun, 22 Nov 2026 01:00:00 GMT', 0],
    ['Sat, 01 Jan 2100 00:00:00 GMT', maxRetryAfterSeconds],
    ['-5', undefined],
    ['1.5', undefined],
    ['2030-01-01', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [header, seconds] of cases) assert.equal(toRetryAfterSeconds(header, now), seconds, header);
});
