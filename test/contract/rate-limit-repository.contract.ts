import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/domain/ids.ts';
import type { BucketRule } from '../../src/domain/rate-limits/rate-limit-repository.ts';
import { at, type RepositoryFixture, T0 } from './repository-fixtures.ts';

/** RateLimitRepository: token buckets shared by every process (part of the repository contract). */
export function runRateLimitContract(fixture: RepositoryFixture): void {
  describe('RateLimitRepository', () => {
    const rule: BucketRule = { burst: 3, refillIntervalMs: 10_000 };
    const repo = () => fixture.repos.rateLimits;

    it('takes burst tokens, then refuses until one refills, answering when the bucket is full', async () => {
      const key = `test:${newId()}`;
      const steps: Array<[offsetMs: number, taken: boolean, fullAtOffsetMs: number]> = [
        [0, true, 10_000],
        [0, true, 20_000],
        [1_000, true, 30_000],
        [1_000, false, 30_000],
        [9_999, false, 30_000],
        [10_000, true, 40_000], // one token back after one interval
        [10_000, false, 40_000],
        [45_000, true, 55_000], // full again: counts from now, not from the old moment
      ];
      for (const [offsetMs, taken, fullAtOffsetMs] of steps) {
        assert.deepEqual(
          await repo().take(key, rule, at(offsetMs)),
          { taken, fullAt: at(fullAtOffsetMs).getTime() },
          `take at +${offsetMs} ms`,
        );
      }
    });

    it('finds the buckets that are not full, only those asked for', async () => {
      const [busy, refilled, other, never] = [1, 2, 3, 4].map(() => `test:${newId()}`);
      await repo().take(busy!, rule, at(0));
      await repo().take(busy!, rule, at(0));
      await repo().take(refilled!, rule, at(0));
      await repo().take(other!, rule, at(0));
      const found = await repo().findFullAt([busy!, refilled!, never!], at(10_000));
      assert.deepEqual(found, new Map([[busy!, at(20_000).getTime()]]));
      assert.deepEqual(await repo().findFullAt([], at(0)), new Map());
    });

    it('gives a token back and forgets a bucket', async () => {
      const key = `test:${newId()}`;
      for (let i = 0; i < 3; i++) await repo().take(key, rule, at(0));
      assert.equal((await repo().take(key, rule, at(0))).taken, false);
      await repo().giveBack(key, rule);
      assert.deepEqual(await repo().take(key, rule, at(0)), { taken: true, fullAt: at(30_000).getTime() });
      await repo().delete(key);
      assert.deepEqual(await repo().findFullAt([key], at(0)), new Map());
      assert.deepEqual(await repo().take(key, rule, at(0)), { taken: true, fullAt: at(10_000).getTime() });
    });

    it('never lets concurrent takes from two handles overdraw a bucket', async () => {
      const other = await fixture.openAnother();
      const key = `test:${newId()}`;
      const wide: BucketRule = { burst: 15, refillIntervalMs: 60_000 };
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? other.repos : fixture.repos).rateLimits.take(key, wide, T0),
        ),
      );
      assert.equal(results.filter((result) => result.taken).length, 15);
      assert.deepEqual(await repo().findFullAt([key], T0), new Map([[key, at(15 * 60_000).getTime()]]));
    });

    it('deletes at most `limit` full buckets, and none that is not full', async () => {
      // An era of its own, before every other test's buckets: only these rows can be full.
      const era = new Date('2001-01-01T00:00:00Z').getTime();
      const keys = Array.from({ length: 5 }, () => `test:${newId()}`);
      for (const [i, key] of keys.entries()) await repo().take(key, rule, new Date(era + i * 1000));
      // Full at era + 10 s … era + 14 s.
      const now = new Date(era + 12_000);
      assert.equal(await repo().deleteFull(now, 2), 2);
      assert.equal(await repo().deleteFull(now, 10), 1);
      assert.equal(await repo().deleteFull(now, 10), 0);
      assert.deepEqual(
        [...(await repo().findFullAt(keys, new Date(era))).keys()].sort(),
        keys.slice(3).sort(),
      );
    });
  });
}
