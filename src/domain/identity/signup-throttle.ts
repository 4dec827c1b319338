import type { Clock } from '../clock.ts';
import { toCountedAddress } from '../rate-limits/counted-address.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';

export type SignupAttempt = { projectId: string; clientAddress: string };

export type SignupLimits = { perAddress: BucketRule; perApp: BucketRule };

/**
 * Every signup attempt costs an argon2 hash, accepted or not, so every one draws a token from
 * its client address's bucket and then its app's (shared buckets; docs/decisions.md).
 */
export class SignupThrottle {
  readonly #buckets: TokenBuckets;
  readonly #limits: SignupLimits;
  readonly #clock: Clock;

  constructor(options: { buckets: TokenBuckets; limits: SignupLimits; clock: Clock }) {
    this.#buckets = options.buckets;
    this.#limits = options.limits;
    this.#clock = options.clock;
  }

  /** Runs `signup` unless the address or the app has no signup left (RATE_LIMITED). */
  async guard<T>(attempt: SignupAttempt, signup: () => Promise<T>): Promise<T> {
    // The address first: an address that is refused never draws on its app's allowance.
    await this.#buckets.takeAll(
      [
        {
          key: toBucketKey('signup-address', toCountedAddress(attempt.clientAddress)),
          rule: this.#limits.perAddress,
        },
        { key: toBucketKey('signup-app', attempt.projectId), rule: this.#limits.perApp },
      ],
      this.#clock.now(),
    );
    return signup();
  }
}
