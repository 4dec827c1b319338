import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

const failurePauseMs = 5000;
const retentionEveryMs = 3_600_000;
const retentionBatch = 1000;
/**
 * Finished mails (their headers and status; the bodies went at once) stay a week for the
 * console and for support questions, then go: a recipient's address is personal data, kept
 * shorter than the audit log's events.
 */
const retentionMs = 7 * 86_400_000;

/**
 * `serve`'s sending of queued mail (issue 23), on the one worker per node that runs the
 * background work: rounds back to back while there is work, then every
 * COFFER_MAIL_DELIVERY_INTERVAL_MS. Nodes side by side share the work (each mail is leased to
 * one). Once an hour, finished mails past a week go. stop() waits for the sends in progress.
 */
export function startMailDelivery(services: Services, log: Log): { stop(): Promise<void> } {
  const { config, clock } = services;
  const deliverer = services.createMailDeliverer(log);
  let nextRetentionAt = 0;
  const running = runPeriodically(async (signal): Promise<number> => {
    try {
      if (Date.now() >= nextRetentionAt) {
        nextRetentionAt = Date.now() + retentionEveryMs;
        const before = new Date(clock.now().getTime() - retentionMs);
        const removed = await services.repositories.mail.deleteFinishedBefore(before, retentionBatch);
        if (removed > 0) log.info({ removed }, 'removed finished mails past their retention');
        if (removed >= retentionBatch) nextRetentionAt = 0;
      }
      const done = await deliverer.runOnce(signal);
      return done > 0 ? 0 : config.mailDeliveryIntervalMs;
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'sending mail failed; retrying shortly');
      return failurePauseMs;
    }
  });
  return {
    async stop() {
      await running.stop();
      deliverer.close();
    },
  };
}
