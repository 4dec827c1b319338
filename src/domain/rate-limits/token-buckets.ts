import { createHash } from 'node:crypto';
import { rateLimited } from '../../errors/errors.ts';
import type { BucketRule, RateLimitRepository } from './rate-limit-repository.ts';

/** One bucket an attempt draws a token from: what is counted, and its rule. */
export type Charge = { key: string; rule: BucketRule };

const hourMs = 3_600_000;

/** `perHour` tokens at once, then the allowance comes back evenly over an hour. */
export function toBucketRule(perHour: number): BucketRule {
  return { burst: perHour, refillIntervalMs: Math.ceil(hourMs / perHour) };
}

/** A bucket's key: its kind, then a hash of what it counts (no email or address is stored as is). */
export function toBucketKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\0')).digest('base64url')}`;
}

/** Checks, takes and gives back tokens of shared buckets (RateLimitRepository) for a set of charges. */
export class TokenBuckets {
  readonly #repository: RateLimitRepository;

  constructor(repository: RateLimitRepository) {
    this.#repository = repository;
  }

  /**
   * Throws RATE_LIMITED, with the longest wait as Retry-After, when a bucket has no token at
   * `now`. Reads only. Answers whether any bucket is in use (has fewer tokens than its burst).
   */
  async assertTokens(charges: Charge[], now: Date): Promise<{ inUse: boolean }> {
    const fullAt = await this.#repository.findFullAt(
      charges.map((charge) => charge.key),
      now,
    );
    const waitMs = Math.max(
      0,
      ...charges.map((charge) => waitForToken(fullAt.get(charge.key), charge.rule, now)),
    );
    if (waitMs > 0) throw rateLimited(toRetryAfterSeconds(waitMs));
    return { inUse: fullAt.size > 0 };
  }

  /**
   * Takes a token from every bucket, in order, or from none: when one is empty (another
   * process took the last token since a check), gives back what it took and throws RATE_LIMITED.
   */
  async takeAll(charges: Charge[], now: Date): Promise<void> {
    const taken: Charge[] = [];
    for (const charge of charges) {
      const result = await this.#repository.take(charge.key, charge.rule, now);
      if (!result.taken) {
        await this.giveBack(taken);
        throw rateLimited(toRetryAfterSeconds(waitForToken(result.fullAt, charge.rule, now)));
      }
      taken.push(charge);
    }
    await this.#sweep(now, charges.length);
  }

  /** Counts an attempt after the fact: a token from every bucket that has one (none goes into debt). */
  async spend(charges: Charge[], now: Date): Promise<void> {
    for (const charge of charges) await this.#repository.take(charge.key, charge.rule, now);
    await this.#sweep(now, charges.length);
  }

  async giveBack(charges: Charge[]): Promise<void> {
    for (const charge of charges) await this.#repository.giveBack(charge.key, charge.rule);
  }

  /** Fills a bucket again at once. */
  async refill(charge: Charge): Promise<void> {
    await this.#repository.delete(charge.key);
  }

  /**
   * Each write also deletes up to twice as many expired rows as it may have created: dead
   * rows cannot pile up, and no request does more than a few rows of clean-up.
   */
  async #sweep(now: Date, rowsWritten: number): Promise<void> {
    await this.#repository.deleteFull(now, 2 * rowsWritten);
  }
}

/** Milliseconds until the bucket has a token again (0: it has one now; undefined fullAt: full). */
function waitForToken(fullAt: number | undefined, rule: BucketRule, now: Date): number {
  if (fullAt === undefined) return 0;
  return Math.max(0, fullAt - (rule.burst - 1) * rule.refillIntervalMs - now.getTime());
}

function toRetryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
