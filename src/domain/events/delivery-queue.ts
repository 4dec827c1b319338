import type { AttemptRecord, DeliveryAttempt } from './delivery-attempt.ts';
import type { StoredEvent } from './event.ts';
import type { Webhook } from './webhook.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint, as the API lists it. */
export type Delivery = {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  fileId: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
};

/** A delivery as its endpoint's listing shows it, with each of its attempts, oldest first. */
export type DeliveryWithAttempts = Delivery & { attemptLog: DeliveryAttempt[] };

/** A delivery taken for an attempt, with what sending it needs. */
export type DueDelivery = Delivery & {
  body: string;
  webhook: Pick<Webhook, 'id' | 'url' | 'secret' | 'previousSecret' | 'previousSecretUntil'>;
};

/** What an attempt leaves: done, to retry at a time, or given up. */
export type AttemptResult = {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  /** The attempt itself, for the attempt log. */
  attempt: AttemptRecord;
  /** How many of the delivery's attempts the log keeps (the schedule's); older ones go. */
  keepAttempts: number;
};

/** What DeliveryQueue.takeDue takes, and how many. */
export type TakeDueOptions = {
  now: Date;
  limit: number;
  /** Deliveries leased at once per endpoint, all nodes together. */
  perEndpoint: number;
  leaseMs: number;
};

/** The deliveries of events to webhooks, kept in the database (the outbox's far side). */
export interface DeliveryQueue {
  /**
   * Reads up to `limit` committed events past the fan-out's position and, in one transaction,
   * adds a delivery for each enabled endpoint of its project that `wants` it and moves the
   * position on. Safe on several nodes (the position row is locked). Answers the events read.
   */
  fanOut(options: {
    limit: number;
    now: Date;
    wants: (webhook: Webhook, event: StoredEvent) => boolean;
    bodyOf: (event: StoredEvent) => string;
    newId: () => string;
  }): Promise<number>;
  /**
   * Leases up to `limit` deliveries due at `now` for `leaseMs`, taking turns between the
   * endpoints with due work (each one's oldest first, then each one's next), never more than
   * leaves `perEndpoint` leased at once for an endpoint (counted across nodes), never one whose
   * endpoint still has an earlier pending delivery of the same file (per-file order), never
   * one another node holds (PostgreSQL: SKIP LOCKED; SQLite: one writer at a time).
   */
  takeDue(options: TakeDueOptions): Promise<DueDelivery[]>;
  /** Records an attempt (the delivery's state and its attempt log, in one transaction) and releases the lease. */
  recordAttempt(deliveryId: string, result: AttemptResult, now: Date): Promise<void>;
  /** A delivery of its own for a test event (POST /webhooks/:id/test), already attempted once. */
  recordTest(delivery: Omit<Delivery, 'fileId'> & { body: string; attempt: AttemptRecord }): Promise<void>;
  /** The endpoint's deliveries with their attempts, newest first, `limit` after the `before` id. */
  list(webhookId: string, page: { before?: string; limit: number }): Promise<DeliveryWithAttempts[]>;
  /** Due again at once (a failed or pending delivery); false when there is no such delivery. */
  retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean>;
  /** Events not yet fanned out and their age, and pending deliveries (`/metrics`). */
  measureLag(
    now: Date,
  ): Promise<{ eventsBehind: number; oldestBehindSeconds: number; pendingDeliveries: number }>;
  /** Events and deliveries older than `before` go (the retention); answers how many events went. */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
