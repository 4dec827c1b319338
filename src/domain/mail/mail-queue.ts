import type { DueMail, MailAttemptResult, NewMail, QueuedMail } from './mail.ts';

/** The queue's state for /metrics: mails waiting to be sent, and the age of the oldest. */
export type MailQueueMeasure = { pendingMails: number; oldestPendingSeconds: number };

/**
 * Outgoing mail, kept in the database (an outbox): a mail queued is sent at least once,
 * whatever stops in between. A flow that must queue a mail with its own change queues it in
 * its transaction (persistence's enqueueMail(trx, mail)); this port queues on its own.
 */
export interface MailQueue {
  enqueue(mail: NewMail): Promise<void>;
  /**
   * Leases up to `limit` mails due at `now` for `leaseMs`, never one another node holds
   * (PostgreSQL: SKIP LOCKED; SQLite: one writer at a time).
   */
  takeDue(now: Date, limit: number, leaseMs: number): Promise<DueMail[]>;
  /**
   * Records an attempt and releases the lease. A mail sent or given up loses its body.
   * security: the body holds single-use tokens; only the headers and the status stay.
   */
  recordAttempt(mailId: string, result: MailAttemptResult, now: Date): Promise<void>;
  find(mailId: string): Promise<QueuedMail | undefined>;
  measure(now: Date): Promise<MailQueueMeasure>;
  /** Sent and failed mails created before `before` go; answers how many went. */
  deleteFinishedBefore(before: Date, limit: number): Promise<number>;
}
