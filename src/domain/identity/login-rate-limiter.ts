import { rateLimited } from '../../errors/errors.ts';

export type LoginAttempt = { projectId: string; email: string; clientAddress: string };

/**
 * Counts failed logins per email and per client address in fixed one-minute windows and
 * refuses further attempts once either has used its allowance, so a password cannot be
 * guessed at argon2's speed. An address gets ten times an email's allowance: many people
 * share one address behind a NAT. In process: every node counts for itself.
 */
export class LoginRateLimiter {
  readonly #perEmail: number;
  readonly #perAddress: number;
  readonly #windowMs = 60_000;
  readonly #failures = new Map<string, { count: number; windowStart: number }>();

  constructor(failuresPerEmailPerMinute: number) {
    this.#perEmail = failuresPerEmailPerMinute;
    this.#perAddress = failuresPerEmailPerMinute * 10;
  }

  /** Throws RATE_LIMITED (with Retry-After) when the email or the address has no attempts left. */
  assertAllowed(attempt: LoginAttempt, nowMs: number): void {
    for (const [key, limit] of this.#keys(attempt)) {
      const entry = this.#failures.get(key);
      if (entry && nowMs - entry.windowStart < this.#windowMs && entry.count >= limit) {
        throw rateLimited(Math.ceil((entry.windowStart + this.#windowMs - nowMs) / 1000));
      }
    }
  }

  recordFailure(attempt: LoginAttempt, nowMs: number): void {
    if (this.#failures.size > 100_000) this.#evictExpired(nowMs);
    for (const [key] of this.#keys(attempt)) {
      const entry = this.#failures.get(key);
      if (!entry || nowMs - entry.windowStart >= this.#windowMs)
        this.#failures.set(key, { count: 1, windowStart: nowMs });
      else entry.count += 1;
    }
  }

  #keys(attempt: LoginAttempt): Array<[string, number]> {
    return [
      [`email:${attempt.projectId}:${attempt.email.trim().toLowerCase()}`, this.#perEmail],
      [`address:${attempt.clientAddress}`, this.#perAddress],
    ];
  }

  #evictExpired(nowMs: number): void {
    for (const [key, entry] of this.#failures) {
      if (nowMs - entry.windowStart >= this.#windowMs) this.#failures.delete(key);
    }
  }
}
