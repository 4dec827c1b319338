import { rateLimited } from '../../errors/errors.ts';

/**
 * Counts failed logins per key (an email, a client address) in fixed one-minute windows and
 * refuses further attempts once a key has used its allowance, so a password cannot be
 * guessed at argon2's speed. In process: every node counts for itself.
 */
export class LoginRateLimiter {
  readonly #limit: number;
  readonly #windowMs = 60_000;
  readonly #failures = new Map<string, { count: number; windowStart: number }>();

  constructor(failuresPerMinute: number) {
    this.#limit = failuresPerMinute;
  }

  /** Throws RATE_LIMITED (with Retry-After) when any of the keys has no attempts left. */
  assertAllowed(keys: readonly string[], nowMs: number): void {
    for (const key of keys) {
      const entry = this.#failures.get(key);
      if (entry && nowMs - entry.windowStart < this.#windowMs && entry.count >= this.#limit) {
        throw rateLimited(Math.ceil((entry.windowStart + this.#windowMs - nowMs) / 1000));
      }
    }
  }

  recordFailure(keys: readonly string[], nowMs: number): void {
    if (this.#failures.size > 100_000) this.#evictExpired(nowMs);
    for (const key of keys) {
      const entry = this.#failures.get(key);
      if (!entry || nowMs - entry.windowStart >= this.#windowMs) this.#failures.set(key, { count: 1, windowStart: nowMs });
      else entry.count += 1;
    }
  }

  #evictExpired(nowMs: number): void {
    for (const [key, entry] of this.#failures) {
      if (nowMs - entry.windowStart >= this.#windowMs) this.#failures.delete(key);
    }
  }
}
