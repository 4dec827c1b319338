import type { Clock } from '../clock.ts';
import { toAttemptRecord } from './delivery-attempt.ts';
import type { AttemptResult, DeliveryQueue, DueDelivery } from './delivery-queue.ts';
import { matchesEventPatterns, signingSecrets } from './webhook.ts';
import { toWebhookBody } from './webhook-body.ts';
import type { WebhookRepository } from './webhook-repository.ts';
import type { WebhookOutcome, WebhookSender } from './webhook-sender.ts';

export type WebhookDelivererOptions = {
  deliveries: DeliveryQueue;
  webhooks: WebhookRepository;
  sender: WebhookSender;
  clock: Clock;
  /** Seconds to wait before each retry, in order; past the last, the endpoint is disabled. */
  retrySeconds: readonly number[];
  newId: () => string;
  /** Attempts in flight at once in this process, all endpoints together. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint, all nodes together. */
  perEndpoint: number;
  /** How long a taken delivery is held (longer than an attempt's time limit). */
  leaseMs: number;
  onOutcome?: (outcome: WebhookOutcome['kind']) => void;
};

const fanOutBatch = 100;
/** The most a `Retry-After` may put an attempt off. */
const maxRetryAfterSeconds = 86_400;

/**
 * Moves committed events to webhook endpoints (issue 22): fans new events out to the endpoints
 * that want them, then attempts the due deliveries. At least once: a delivery is marked done
 * only after its receiver answered 2xx, so a crash in between repeats it (same webhook-id, for
 * the receiver to deduplicate). 410 disables the endpoint; a failure waits out the retry
 * schedule (with jitter, or the receiver's Retry-After when longer), and an endpoint that
 * fails the whole schedule is disabled.
 *
 * Scheduled per endpoint (issue 35): `concurrency` slots in this process, at most
 * `perEndpoint` attempts per endpoint, the endpoints taking turns, and no batch to wait out:
 * a round fills the free slots and returns, and a slot that frees can be filled at once
 * (`whenSlotFrees`). An endpoint that never answers holds its own slots until its attempts
 * time out, and no others.
 */
export class WebhookDeliverer {
  readonly #o: WebhookDelivererOptions;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #slotWaiters = new Set<() => void>();

  constructor(options: WebhookDelivererOptions) {
    this.#o = options;
  }

  /**
   * One round: fans out, then starts attempts of due deliveries in the free slots without
   * waiting for them; answers how much calls for another round at once: the attempts it
   * started, or the events of a full fan-out batch (more may wait). 0 (idle, every slot busy,
   * or a few events that no endpoint wanted) lets the caller wait for a slot or its interval:
   * under a stream of writes to projects without webhooks, a round per handful of events was
   * a database round trip or more per write (issue 44). An attempt that fails outside the
   * receiver's answer (the database) goes to `onError`; its lease lapses and it is attempted
   * again.
   */
  async runOnce(signal?: AbortSignal, onError?: (error: unknown) => void): Promise<number> {
    const fannedOut = await this.#o.deliveries.fanOut({
      limit: fanOutBatch,
      now: this.#o.clock.now(),
      wants: (webhook, event) => matchesEventPatterns(webhook.events, event.type),
      bodyOf: toWebhookBody,
      newId: this.#o.newId,
    });
    const more = fannedOut >= fanOutBatch ? fannedOut : 0;
    const free = this.#o.concurrency - this.#inFlight.size;
    if (free <= 0 || signal?.aborted) return more;
    const due = await this.#o.deliveries.takeDue({
      now: this.#o.clock.now(),
      limit: free,
      perEndpoint: this.#o.perEndpoint,
      leaseMs: this.#o.leaseMs,
    });
    for (const delivery of due) this.#start(delivery, signal, onError);
    return more + due.length;
  }

  /** Resolves when an attempt in flight ends, after `timeoutMs`, or on `signal`, whichever is first. */
  whenSlotFrees(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#slotWaiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.#slotWaiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
      if (signal?.aborted) done();
    });
  }

  /** Waits for every attempt in flight (they end early once their signal aborts). */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  #start(delivery: DueDelivery, signal?: AbortSignal, onError?: (error: unknown) => void): void {
    const attempt = this.#attempt(delivery, signal)
      .catch((error: unknown) => {
        // Stopping: the lease lapses and another round (or node) attempts it again.
        if (!signal?.aborted) onError?.(error);
      })
      .finally(() => {
        this.#inFlight.delete(attempt);
        for (const wake of [...this.#slotWaiters]) wake();
      });
    this.#inFlight.add(attempt);
  }

  async #attempt(delivery: DueDelivery, signal?: AbortSignal): Promise<void> {
    const attemptedAt = this.#o.clock.now();
    const outcome = await this.#o.sender.send(
      {
        url: delivery.webhook.url,
        secrets: signingSecrets(delivery.webhook, attemptedAt),
        eventId: delivery.eventId,
        attemptedAt,
        body: delivery.body,
      },
      signal,
    );
    this.#o.onOutcome?.(outcome.kind);
    const result = {
      ...this.#toResult(delivery, outcome, attemptedAt),
      attempt: toAttemptRecord(outcome, attemptedAt),
      // The first attempt and one per retry: what the schedule allows, and what the log keeps.
      keepAttempts: this.#o.retrySeconds.length + 1,
    };
    await this.#o.deliveries.recordAttempt(delivery.id, result, this.#o.clock.now());
    if (outcome.kind === 'gone')
      await this.#o.webhooks.disable(
        delivery.webhook.id,
        'the endpoint answered 410 Gone',
        this.#o.clock.now(),
      );
    else if (result.status === 'failed')
      await this.#o.webhooks.disable(
        delivery.webhook.id,
        `a delivery failed ${delivery.attempts + 1} times, through the whole retry schedule`,
        this.#o.clock.now(),
      );
  }

  #toResult(
    delivery: DueDelivery,
    outcome: WebhookOutcome,
    at: Date,
  ): Omit<AttemptResult, 'attempt' | 'keepAttempts'> {
    if (outcome.kind === 'delivered')
      return { status: 'delivered', nextAttemptAt: null, lastStatus: outcome.status, lastError: null };
    if (outcome.kind === 'gone')
      return {
        status: 'failed',
        nextAttemptAt: null,
        lastStatus: 410,
        lastError: 'the endpoint answered 410 Gone',
      };
    const lastStatus = outcome.status ?? null;
    const waitSeconds = this.#o.retrySeconds[delivery.attempts];
    if (waitSeconds === undefined)
      return { status: 'failed', nextAttemptAt: null, lastStatus, lastError: outcome.error };
    // Jitter (±20%): endpoints that failed together do not all come back at the same instant.
    const jittered = waitSeconds * (0.8 + Math.random() * 0.4);
    const retryAfter = Math.min(outcome.retryAfterSeconds ?? 0, maxRetryAfterSeconds);
    const nextAttemptAt = new Date(at.getTime() + Math.max(jittered, retryAfter) * 1000);
    return { status: 'pending', nextAttemptAt, lastStatus, lastError: outcome.error };
  }
}
