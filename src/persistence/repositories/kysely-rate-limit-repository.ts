import { type Kysely, sql } from 'kysely';
import type { BucketRule, RateLimitRepository } from '../../domain/rate-limits/rate-limit-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { deleteExpiredRows } from './delete-expired-rows.ts';
import { prepareStatement } from './prepared-query.ts';

const current = sql.ref<number>('rate_limit_buckets.full_at');

/**
 * Token buckets as one row each (GCRA: the row holds the moment the bucket is full again), so
 * taking a token is a single upsert that both SQLite and PostgreSQL run atomically.
 */
export class KyselyRateLimitRepository implements RateLimitRepository {
  readonly #db: Kysely<DatabaseSchema>;
  /**
   * One statement: the row is locked while the condition is checked and the new moment
   * written (PostgreSQL re-checks the WHERE on the latest row version; SQLite writes one at a
   * time), so concurrent takes on every node together never take more than `burst`. Compiled
   * once (prepared-query.ts): every new rendition's link takes a token (issue 44 item 4).
   */
  readonly #takeToken = prepareStatement(
    (key: string, fullAt: number, nowMs: number, interval: number, lastFullAt: number) =>
      this.#db
        .insertInto('rate_limit_buckets')
        .values({ key, full_at: fullAt })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet({
              full_at: sql<number>`(case when ${current} > ${nowMs} then ${current} else ${nowMs} end) + ${interval}`,
            })
            .where(current, '<=', lastFullAt),
        )
        .returning('full_at'),
    5,
  );

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async findFullAt(keys: string[], now: Date): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('rate_limit_buckets')
      .select(['key', 'full_at'])
      .where('key', 'in', keys)
      .where('full_at', '>', now.getTime())
      .execute();
    return new Map(rows.map((row) => [row.key, Number(row.full_at)]));
  }

  async take(key: string, rule: BucketRule, now: Date): Promise<{ taken: boolean; fullAt: number }> {
    const nowMs = now.getTime();
    const interval = Math.ceil(rule.refillIntervalMs);
    const [row] = await this.#takeToken(
      this.#db,
      key,
      nowMs + interval,
      nowMs,
      interval,
      nowMs + (rule.burst - 1) * interval,
    );
    if (row) return { taken: true, fullAt: Number(row.full_at) };
    // The WHERE refused the update: the bucket is empty. Read when it refills, for Retry-After.
    const [fullAt] = (await this.findFullAt([key], now)).values();
    return { taken: false, fullAt: fullAt ?? nowMs };
  }

  async giveBack(key: string, rule: BucketRule): Promise<void> {
    await this.#db
      .updateTable('rate_limit_buckets')
      .set((eb) => ({ full_at: eb('full_at', '-', Math.ceil(rule.refillIntervalMs)) }))
      .where('key', '=', key)
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.#db.deleteFrom('rate_limit_buckets').where('key', '=', key).execute();
  }

  deleteFull(now: Date, limit: number): Promise<number> {
    return deleteExpiredRows(
      this.#db,
      { table: 'rate_limit_buckets', key: 'key', deadline: 'full_at' },
      now,
      limit,
    );
  }
}
