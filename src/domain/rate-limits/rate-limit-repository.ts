/** A token bucket: `burst` tokens at most, one more back every `refillIntervalMs`. */
export type BucketRule = { burst: number; refillIntervalMs: number };

/**
 * Rate-limit buckets, shared by every process and node through the metadata store. A bucket
 * is kept as the moment it is full again (`fullAt`, Unix ms); no row, or a moment that has
 * passed, is a full bucket. It has a token at `now` while `fullAt - now <= (burst - 1) * refillIntervalMs`.
 */
export interface RateLimitRepository {
  /** When each of these buckets is full again, for those that are not full at `now`. */
  findFullAt(keys: string[], now: Date): Promise<Map<string, number>>;
  /**
   * Takes one token if the bucket has one, in one atomic statement (concurrent takes never
   * overdraw it); answers whether it did and when the bucket is full again.
   */
  take(key: string, rule: BucketRule, now: Date): Promise<{ taken: boolean; fullAt: number }>;
  /** Gives back a token taken for an attempt that turned out not to count. */
  giveBack(key: string, rule: BucketRule): Promise<void>;
  /** Forgets a bucket (it is full again). */
  delete(key: string): Promise<void>;
  /** Deletes at most `limit` buckets that are full at `now`, oldest first; answers how many. */
  deleteFull(now: Date, limit: number): Promise<number>;
}
