import { Counter, type Registry } from 'prom-client';
import type { AccountMailOutcome } from '../domain/accounts/account-mail-flows.ts';
import type { MailDropReason } from '../domain/accounts/account-mail-throttle.ts';
import type { MailOutcome } from '../domain/mail/mail-deliverer.ts';
import type { MailQueueMeasure } from '../domain/mail/mail-queue.ts';
import { registerDatabaseGauges } from './database-gauges.ts';

/** Outgoing mail (issue 23): what the deliverer did, and what waits in the queue. */
export class MailMetrics {
  readonly #registry: Registry;
  readonly #sent: Counter;
  readonly #failed: Counter;
  readonly #attemptFailures: Counter;
  readonly #accountMailRequests: Counter<'purpose' | 'outcome'>;
  readonly #dropped: Counter<'reason'>;

  constructor(registry: Registry) {
    this.#registry = registry;
    const registers = [registry];
    this.#sent = new Counter({
      name: 'coffer_mails_sent_total',
      help: 'Mails the SMTP server accepted (or the log transport wrote)',
      registers,
    });
    this.#failed = new Counter({
      name: 'coffer_mails_failed_total',
      help: 'Mails given up: refused for good (5xx) or failed through the whole retry schedule',
      registers,
    });
    this.#attemptFailures = new Counter({
      name: 'coffer_mail_attempt_failures_total',
      help: 'Mail attempts that failed, retried or given up (SMTP down, timeouts, refusals)',
      registers,
    });
    this.#accountMailRequests = new Counter({
      name: 'coffer_account_mail_requests_total',
      help: 'Requests for account mails (reset, verification, magic link) by what became of them: queued, no_account (no mail), recipient_limited (no mail), failed',
      labelNames: ['purpose', 'outcome'],
      registers,
    });
    this.#dropped = new Counter({
      name: 'coffer_mails_dropped_total',
      help: "Account mails a limit dropped, by reason: recipient_limit (the address's one a minute, five an hour; answered as usual), project_budget (the project's daily budget; answered 429)",
      labelNames: ['reason'],
      registers,
    });
  }

  /** A mail a limit dropped (issue 43): also in the log, its address masked. */
  mailDropped(reason: MailDropReason): void {
    this.#dropped.inc({ reason });
  }

  /** What became of a request for an account mail, once it is settled (after its 202). */
  accountMailRequested(purpose: string, outcome: AccountMailOutcome): void {
    this.#accountMailRequests.inc({ purpose, outcome });
  }

  /** The queue, read from the database at each scrape (the deployment's: `max`, not a sum). */
  watchQueue(measure: () => Promise<MailQueueMeasure>): void {
    registerDatabaseGauges(this.#registry, measure, [
      ['coffer_mail_queue_pending', 'Mails waiting to be sent or retried (all nodes)', 'pendingMails'],
      [
        'coffer_mail_queue_oldest_seconds',
        'Age of the oldest mail waiting to be sent',
        'oldestPendingSeconds',
      ],
    ]);
  }

  attempted(outcome: MailOutcome): void {
    if (outcome === 'sent') this.#sent.inc();
    else this.#attemptFailures.inc();
    if (outcome === 'failed') this.#failed.inc();
  }
}
