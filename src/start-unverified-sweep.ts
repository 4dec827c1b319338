import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

/** Batches per pass (of the sweeper's batch size each): a long backlog is spread over passes. */
const maxBatchesPerPass = 50;
/** Between passes while a backlog remains. */
const backlogPauseMs = 1000;

/**
 * `serve`'s removal of expired never-verified records (docs/decisions.md): a pass at start,
 * then every COFFER_UNVERIFIED_SWEEP_INTERVAL_SECONDS, logging how many it removed. One worker
 * per node runs it, the one that runs the blob collection; passes on several nodes are safe
 * side by side (each delete re-checks its condition). Timers are unref'd; stop() waits for the
 * pass in progress.
 */
export function startUnverifiedSweep(services: Services, log: Log): { stop(): Promise<void> } | undefined {
  const intervalSeconds = services.config.unverifiedSweepIntervalSeconds;
  if (intervalSeconds === 0) return undefined;
  return runPeriodically(async (signal): Promise<number> => {
    try {
      const report = await services.unverifiedSweeper.sweep({ maxBatches: maxBatchesPerPass, signal });
      if (report.removed > 0) log.info({ ...report }, 'removed expired unverified uploads');
      if (report.removed >= maxBatchesPerPass * services.unverifiedSweeper.batchSize) return backlogPauseMs;
    } catch (error) {
      if (!signal.aborted)
        log.warn({ err: error }, 'sweeping unverified uploads failed; retrying at the next interval');
    }
    return intervalSeconds * 1000 * (0.9 + Math.random() * 0.2);
  });
}
