import type { Clock } from '../clock.ts';
import type { DueMail, MailAttemptResult } from './mail.ts';
import type { MailQueue } from './mail-queue.ts';
import { MailSendError, type MailTransport } from './mail-transport.ts';

/** What became of one attempt: sent, failed for now (to retry), or given up. */
export type MailOutcome = 'sent' | 'retrying' | 'failed';

export type MailDelivererOptions = {
  queue: MailQueue;
  transport: MailTransport;
  clock: Clock;
  /** Seconds to wait before each retry, in order; past the last, the mail is given up. */
  retrySeconds: readonly number[];
  /** Sends in flight at once. */
  concurrency: number;
  /** How long a taken mail is held (longer than an attempt may take). */
  leaseMs: number;
  onOutcome?: (outcome: MailOutcome) => void;
};

const batchSize = 50;
/** Bounds what an error from a server leaves in the table. */
const maxErrorLength = 500;

/**
 * Sends queued mails (issue 23): takes the due ones, sends each through the transport, records
 * the attempt. At least once: a mail is marked sent only after the server accepted it, so a
 * crash in between sends it again. A transient failure waits out the retry schedule (with
 * jitter); a permanent one (the recipient refused) and one past the schedule are given up.
 */
export class MailDeliverer {
  readonly #o: MailDelivererOptions;

  constructor(options: MailDelivererOptions) {
    this.#o = options;
  }

  /** One round: answers how many mails it attempted (0: idle). */
  async runOnce(signal?: AbortSignal): Promise<number> {
    const due = await this.#o.queue.takeDue(this.#o.clock.now(), batchSize, this.#o.leaseMs);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !signal?.aborted) await this.#attempt(due[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.#o.concurrency, due.length) }, worker));
    return due.length;
  }

  /** Lets go of the transport's connections, once the last round ended. */
  close(): void {
    this.#o.transport.close();
  }

  async #attempt(mail: DueMail): Promise<void> {
    let result: MailAttemptResult;
    try {
      await this.#o.transport.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      result = { status: 'sent', nextAttemptAt: null, lastError: null };
    } catch (error) {
      result = this.#toFailure(mail, error);
    }
    const outcome = result.status === 'pending' ? 'retrying' : result.status;
    this.#o.onOutcome?.(outcome);
    await this.#o.queue.recordAttempt(mail.id, result, this.#o.clock.now());
  }

  #toFailure(mail: DueMail, error: unknown): MailAttemptResult {
    const lastError = String((error as Error)?.message ?? error).slice(0, maxErrorLength);
    const waitSeconds = this.#o.retrySeconds[mail.attempts];
    if ((error instanceof MailSendError && error.permanent) || waitSeconds === undefined)
      return { status: 'failed', nextAttemptAt: null, lastError };
    // Jitter (±20%): mails that failed together (a server outage) do not all come back at once.
    const jitteredMs = waitSeconds * 1000 * (0.8 + Math.random() * 0.4);
    return {
      status: 'pending',
      nextAttemptAt: new Date(this.#o.clock.now().getTime() + jitteredMs),
      lastError,
    };
  }
}
