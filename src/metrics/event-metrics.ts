import { Counter, type Registry } from 'prom-client';
import { registerDatabaseGauges } from './database-gauges.ts';

type Lag = { eventsBehind: number; oldestBehindSeconds: number; pendingDeliveries: number };

/** Events and webhooks (issue 22): the outbox's lag and the deliveries' outcomes. */
export class EventMetrics {
  readonly #registry: Registry;
  readonly #attempts: Counter<'outcome'>;

  constructor(registry: Registry) {
    this.#registry = registry;
    this.#attempts = new Counter({
      name: 'coffer_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, failed, gone)',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  /**
   * The outbox's lag, read from the database at each scrape (the deployment's, so every worker
   * reports the same: `max`, not a sum).
   */
  watchLag(measure: () => Promise<Lag>): void {
    registerDatabaseGauges(this.#registry, measure, [
      [
        'coffer_outbox_events_behind',
        'Committed events not yet handed to webhook deliveries (all nodes)',
        'eventsBehind',
      ],
      [
        'coffer_outbox_lag_seconds',
        'Age of the oldest event not yet handed to webhook deliveries',
        'oldestBehindSeconds',
      ],
      [
        'coffer_webhook_deliveries_pending',
        'Webhook deliveries waiting for an attempt or a retry (all nodes)',
        'pendingDeliveries',
      ],
    ]);
  }

  attempted(outcome: 'delivered' | 'failed' | 'gone'): void {
    this.#attempts.inc({ outcome });
  }
}
