import { rateLimited } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toCountedAddress } from '../rate-limits/counted-address.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type Charge, type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';

export type AccountMailLimits = {
  /** Per client address, all recipients and purposes together: past it, 429. */
  perClient: BucketRule;
};

/** Per recipient: one mail a minute and five an hour, whatever asks (issue 23, item 7). */
const perRecipient: BucketRule[] = [
  { burst: 1, refillIntervalMs: 60_000 },
  { burst: 5, refillIntervalMs: 720_000 },
];

const dayMs = 86_400_000;

export type MailRequest = { projectId: string; email: string; clientAddress: string };

/** Why a requested mail was not sent (issue 43): the recipient's buckets, or the project's daily budget. */
export type MailDropReason = 'recipient_limit' | 'project_budget';

/** A mail a limit dropped, for the log (the address masked there) and the metrics. */
export type MailDrop = { reason: MailDropReason; projectId: string; email: string };

/**
 * The limits of account mails (password reset, verification, magic link), built so that they
 * tell nobody whether an address has an account: every check below runs, and costs the same,
 * for a known address and an unknown one, before the address is even looked up.
 * - the client address's bucket (429 RATE_LIMITED past it),
 * - the project's daily budget (429 while it is empty; docs/decisions.md: it is drawn only by
 *   mails actually sent, so requests for unknown addresses cannot drain it and lock everyone out),
 * - the recipient's buckets, which say nothing: past them the request is answered as usual and
 *   no mail goes.
 */
export class AccountMailThrottle {
  readonly #buckets: TokenBuckets;
  readonly #limits: AccountMailLimits;
  readonly #clock: Clock;
  readonly #onDropped: (drop: MailDrop) => void;

  constructor(options: {
    buckets: TokenBuckets;
    limits: AccountMailLimits;
    clock: Clock;
    /** Told of every mail a recipient's or the project's limit drops (logged and counted). */
    onDropped?: (drop: MailDrop) => void;
  }) {
    this.#buckets = options.buckets;
    this.#limits = options.limits;
    this.#clock = options.clock;
    this.#onDropped = options.onDropped ?? (() => {});
  }

  /**
   * Throws RATE_LIMITED for the client's or the project's limit; answers whether the recipient
   * may get a mail now (false: answer as usual, send nothing).
   */
  async admit(request: MailRequest, dailyBudget: number | null): Promise<boolean> {
    const now = this.#clock.now();
    await this.#buckets.takeAll(
      [
        {
          key: toBucketKey('account-mail-client', toCountedAddress(request.clientAddress)),
          rule: this.#limits.perClient,
        },
      ],
      now,
    );
    const dropped = (reason: MailDropReason) =>
      this.#onDropped({ reason, projectId: request.projectId, email: request.email });
    // A budget of 0 sends no account mail at all (a bucket of 0 tokens would count as full).
    if (dailyBudget === 0) {
      dropped('project_budget');
      throw rateLimited(dayMs / 1000);
    }
    const budget = toBudgetCharge(request.projectId, dailyBudget);
    if (budget)
      await this.#buckets.assertTokens([budget], now).catch(refusedBy(() => dropped('project_budget')));
    try {
      await this.#buckets.takeAll(toRecipientCharges(request), now);
      return true;
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      dropped('recipient_limit');
      return false;
    }
  }

  /**
   * Counts a mail that goes out without a request of its own (signup's verification, an
   * operator's reset) against the recipient's buckets: every mail to an address counts
   * (issue 35, item 9), so the next request for one within the minute sends nothing. It never
   * refuses the mail itself: that one is the answer to the signup or to an operator's click.
   */
  async countRecipient(request: Omit<MailRequest, 'clientAddress'>): Promise<void> {
    await this.#buckets.spend(toRecipientCharges(request), this.#clock.now());
  }

  /** Counts a mail that is going out against the project's daily budget. */
  async spendBudget(projectId: string, dailyBudget: number | null): Promise<void> {
    const budget = toBudgetCharge(projectId, dailyBudget);
    if (budget) await this.#buckets.spend([budget], this.#clock.now());
  }
}

function isRateLimited(error: unknown): boolean {
  return (error as { code?: string }).code === 'RATE_LIMITED';
}

/** Rethrows the error; a limit's refusal is reported first. */
function refusedBy(report: () => void) {
  return (error: unknown): never => {
    if (isRateLimited(error)) report();
    throw error;
  };
}

function toRecipientCharges(request: Omit<MailRequest, 'clientAddress'>): Charge[] {
  const recipient = request.email.trim().toLowerCase();
  return perRecipient.map((rule) => ({
    key: toBucketKey(`account-mail-to-${rule.burst}`, request.projectId, recipient),
    rule,
  }));
}

function toBudgetCharge(projectId: string, dailyBudget: number | null): Charge | undefined {
  if (dailyBudget === null || dailyBudget === 0) return undefined;
  return {
    key: toBucketKey('account-mail-project', projectId),
    rule: { burst: dailyBudget, refillIntervalMs: Math.ceil(dayMs / dailyBudget) },
  };
}
