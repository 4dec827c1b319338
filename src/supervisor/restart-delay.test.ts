import assert from 'node:assert/strict';
import { it } from 'node:test';
import { restartDelayMs } from './restart-delay.ts';

it('replaces a worker at once, then slows a crash loop down to a 30 s ceiling', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 50].map(restartDelayMs),
    [0, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000],
  );
});
