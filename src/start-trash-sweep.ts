import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

/** Batches per project per pass (of purgeBatchSize each): a long backlog is spread over passes. */
const maxBatchesPerPass = 20;

/**
 * `serve`'s trash retention (issue 38): each pass purges the files trashed longer ago than their
 * project's trashRetentionDays (the setting as it is now), and their bytes. It runs beside the
 * unverified sweep (start-unverified-sweep.ts), on its interval (0: neither runs), by the one
 * worker per node that collects blobs; passes on several nodes are safe side by side (each
 * purge is one transaction that finds the row or does nothing). stop() waits for the pass.
 */
export function startTrashSweep(services: Services, log: Log): { stop(): Promise<void> } | undefined {
  const intervalSeconds = services.config.unverifiedSweepIntervalSeconds;
  if (intervalSeconds === 0) return undefined;
  return runPeriodically(async (signal): Promise<number> => {
    try {
      const report = await services.trashPurging.sweepExpired({ maxBatches: maxBatchesPerPass, signal });
      if (report.purged > 0) log.info({ ...report }, 'purged expired trash');
    } catch (error) {
      if (!signal.aborted)
        log.warn({ err: error }, 'purging expired trash failed; retrying at the next interval');
    }
    return intervalSeconds * 1000 * (0.9 + Math.random() * 0.2);
  });
}
