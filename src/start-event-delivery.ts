import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

const failurePauseMs = 5000;
const retentionEveryMs = 3_600_000;
const retentionBatch = 1000;

/**
 * `serve`'s delivery of events to webhooks (issue 22), on the one worker per node that runs the
 * background work: rounds back to back while there is work, then every
 * COFFER_EVENT_DELIVERY_INTERVAL_MS. Nodes side by side share the work (each delivery is leased
 * to one). Once an hour, events past COFFER_EVENT_RETENTION_DAYS go. Timers are unref'd;
 * stop() waits for the round in progress (its attempts end with the signal).
 */
export function startEventDelivery(services: Services, log: Log): { stop(): Promise<void> } {
  const { config, clock } = services;
  let nextRetentionAt = 0;
  return runPeriodically(async (signal): Promise<number> => {
    try {
      if (Date.now() >= nextRetentionAt) {
        nextRetentionAt = Date.now() + retentionEveryMs;
        const before = new Date(clock.now().getTime() - config.eventRetentionDays * 86_400_000);
        const removed = await services.repositories.deliveries.deleteOlderThan(before, retentionBatch);
        if (removed > 0) log.info({ removed }, 'removed events past their retention');
        if (removed >= retentionBatch) nextRetentionAt = 0;
      }
      const done = await services.webhookDeliverer.runOnce(signal);
      return done > 0 ? 0 : config.eventDeliveryIntervalMs;
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'delivering events failed; retrying shortly');
      return failurePauseMs;
    }
  });
}
