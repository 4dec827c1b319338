import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

const failurePauseMs = 5000;
const retentionEveryMs = 3_600_000;
const retentionBatch = 1000;

/**
 * `serve`'s delivery of events to webhooks (issue 22), on the one worker per node that runs the
 * background work: a round fans out new events and fills the free attempt slots; the next
 * round comes at once when there was work, else when an attempt ends (a slot frees: issue 35,
 * no batch barrier) or after COFFER_EVENT_DELIVERY_INTERVAL_MS (new events), whichever is
 * first. Nodes side by side share the work (each delivery is leased to one). Once an hour,
 * events past COFFER_EVENT_RETENTION_DAYS go. Timers are unref'd; stop() waits for the round
 * and the attempts in flight (they end with the signal).
 */
export function startEventDelivery(services: Services, log: Log): { stop(): Promise<void> } {
  const { config, clock, webhookDeliverer: deliverer } = services;
  let nextRetentionAt = 0;
  const onError = (error: unknown) =>
    log.warn({ err: error }, 'recording a webhook attempt failed; its lease lapses and it is retried');
  const rounds = runPeriodically(async (signal): Promise<number> => {
    try {
      if (Date.now() >= nextRetentionAt) {
        nextRetentionAt = Date.now() + retentionEveryMs;
        const before = new Date(clock.now().getTime() - config.eventRetentionDays * 86_400_000);
        const removed = await services.repositories.deliveries.deleteOlderThan(before, retentionBatch);
        if (removed > 0) log.info({ removed }, 'removed events past their retention');
        if (removed >= retentionBatch) nextRetentionAt = 0;
      }
      const done = await deliverer.runOnce(signal, onError);
      if (done === 0) await deliverer.whenSlotFrees(config.eventDeliveryIntervalMs, signal);
      return 0;
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'delivering events failed; retrying shortly');
      return failurePauseMs;
    }
  });
  return {
    async stop() {
      await rounds.stop();
      await deliverer.settle();
    },
  };
}
