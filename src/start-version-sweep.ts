import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

/** Batches per pass (of the sweeper's batch size each): a long backlog is spread over passes. */
const maxBatchesPerPass = 50;
/** Between passes while a backlog remains. */
const backlogPauseMs = 1000;

/**
 * `serve`'s retention of earlier versions (issue 38): a pass at start, then every
 * COFFER_UNVERIFIED_SWEEP_INTERVAL_SECONDS (the sweeps of what expires share one rhythm),
 * logging what it removed. Run by the one worker per node that runs the blob collection;
 * passes on several nodes are safe side by side. Timers are unref'd; stop() waits for the pass.
 */
export function startVersionSweep(services: Services, log: Log): { stop(): Promise<void> } | undefined {
  const intervalSeconds = services.config.unverifiedSweepIntervalSeconds;
  if (intervalSeconds === 0) return undefined;
  return runPeriodically(async (signal): Promise<number> => {
    try {
      const report = await services.versionSweeper.sweep({ maxBatches: maxBatchesPerPass, signal });
      if (report.uploadsRemoved + report.versionsPruned > 0)
        log.info({ ...report }, 'removed expired versions and version uploads');
      const full = maxBatchesPerPass * services.versionSweeper.batchSize;
      if (report.uploadsRemoved >= full || report.versionsPruned >= full) return backlogPauseMs;
    } catch (error) {
      if (!signal.aborted)
        log.warn({ err: error }, 'sweeping versions failed; retrying at the next interval');
    }
    return intervalSeconds * 1000 * (0.9 + Math.random() * 0.2);
  });
}
