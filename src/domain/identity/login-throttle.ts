import { isAppError } from '../../errors/app-error.ts';
import type { Clock } from '../clock.ts';
import { toCountedAddress } from '../rate-limits/counted-address.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type Charge, type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';

export type LoginAttempt = { projectId: string; email: string; clientAddress: string };

export type LoginLimits = {
  /** Failures of one client address on one account: the owner elsewhere is not affected. */
  perAccountAddress: BucketRule;
  /** Failures on one account from every address: slows guessing spread over many addresses. */
  perAccount: BucketRule;
  /** Failures of one client address on every account: slows one address spraying many accounts. */
  perAddress: BucketRule;
};

/**
 * Failed logins draw tokens from three shared buckets (docs/decisions.md states the policy);
 * an attempt is refused with RATE_LIMITED while any of them is empty. Only INVALID_LOGIN
 * counts: a right password, even of a disabled account, costs nothing.
 */
export class LoginThrottle {
  readonly #buckets: TokenBuckets;
  readonly #limits: LoginLimits;
  readonly #clock: Clock;
  /** Accounts with an attempt in flight in this process that reserved no tokens. */
  readonly #unreserved = new Set<string>();

  constructor(options: { buckets: TokenBuckets; limits: LoginLimits; clock: Clock }) {
    this.#buckets = options.buckets;
    this.#limits = options.limits;
    this.#clock = options.clock;
  }

  /** Runs `login` unless the attempt is refused, and counts it if it fails. */
  async guard<T>(attempt: LoginAttempt, login: () => Promise<T>): Promise<T> {
    const charges = this.#chargesOf(attempt);
    const [perAddress, perAccountAddress, perAccount] = charges;
    const now = this.#clock.now();
    const { inUse } = await this.#buckets.assertTokens(charges, now);
    // The usual login (no recent failure, nothing else in flight on the account here) writes
    // nothing unless it fails. Otherwise the attempt takes its tokens before the password is
    // checked, atomically: parallel guesses cannot all pass the read above and count later.
    const reserved = inUse || this.#unreserved.has(perAccount.key);
    if (reserved) await this.#buckets.takeAll(charges, now);
    else this.#unreserved.add(perAccount.key);
    try {
      const result = await login();
      if (reserved) {
        await this.#buckets.giveBack([perAddress, perAccount]);
        // A success forgives this address its failures on this account (a mistyped password).
        await this.#buckets.refill(perAccountAddress);
      }
      return result;
    } catch (error) {
      if (!isFailedGuess(error)) {
        if (reserved) await this.#buckets.giveBack(charges);
      } else if (!reserved) {
        await this.#buckets.spend(charges, this.#clock.now());
      }
      throw error;
    } finally {
      if (!reserved) this.#unreserved.delete(perAccount.key);
    }
  }

  /** In the order they are taken: a refused address never draws on the account's bucket. */
  #chargesOf(attempt: LoginAttempt): [Charge, Charge, Charge] {
    const address = toCountedAddress(attempt.clientAddress);
    const email = attempt.email.trim().toLowerCase();
    return [
      { key: toBucketKey('login-address', address), rule: this.#limits.perAddress },
      {
        key: toBucketKey('login-account-address', attempt.projectId, email, address),
        rule: this.#limits.perAccountAddress,
      },
      { key: toBucketKey('login-account', attempt.projectId, email), rule: this.#limits.perAccount },
    ];
  }
}

function isFailedGuess(error: unknown): boolean {
  return isAppError(error) && error.code === 'INVALID_LOGIN';
}
