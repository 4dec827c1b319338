import fc, { type Parameters } from 'fast-check';
import { chooseSeed } from './seeded-random.ts';
import { currentStackName } from './test-stack.ts';

export { chooseSeed };

/**
 * How hard the fuzz suites push. `npm test` runs the default rounds (a minute or two in all);
 * `npm run test:long` sets COFFER_TEST_LONG=1 and every suite runs ten times as many.
 */
export const isLongRun = process.env.COFFER_TEST_LONG === '1';

/**
 * The number of rounds a suite runs: `base` in `npm test` (its embedded pass), ten times that
 * in a long run. The PostgreSQL + S3 pass repeats a fifth of it: the stores differ, the HTTP
 * layer does not.
 */
export function toRounds(base: number): number {
  const share = currentStackName() === 'embedded' ? 1 : 0.2;
  return Math.ceil((isLongRun ? base * 10 : base) * share);
}

/** A per-test timeout that grows with the rounds (node --test's default is for normal runs). */
export function toTimeoutMs(baseMs: number): number {
  return isLongRun ? baseMs * 12 : baseMs;
}

/** fast-check parameters: the chosen seed and `numRuns` scaled for long runs. */
export function propertyParameters(suite: string, numRuns: number): Parameters<unknown> {
  return { seed: chooseSeed(suite), numRuns: toRounds(numRuns) };
}

/**
 * Any UTF-16 code unit, lone surrogates included. fast-check's own `unit: 'binary'` covers the
 * same ground but spends seconds building a table of all of Unicode the first time it is used.
 */
export const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
