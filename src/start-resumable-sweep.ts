import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

/** Uploads looked at per page; a longer backlog is taken a page at a time, a second apart. */
const pageSize = 100;
const backlogPauseMs = 1000;

/**
 * `serve`'s removal of expired resumable uploads (issue 20): their temp files or S3 multipart
 * uploads, their rows, and the reservation of their never-uploaded records. A pass at start,
 * then every COFFER_RESUMABLE_SWEEP_INTERVAL_SECONDS, on the one worker per node that runs the
 * blob collection; passes on several nodes are safe side by side (each upload is swept under
 * its lease). Timers are unref'd; stop() waits for the pass in progress.
 */
export function startResumableSweep(services: Services, log: Log): { stop(): Promise<void> } | undefined {
  const intervalSeconds = services.config.resumableSweepIntervalSeconds;
  const uploads = services.resumableUploads;
  if (intervalSeconds === 0 || !uploads) return undefined;
  return runPeriodically(async (signal): Promise<number> => {
    try {
      const removed = await uploads.sweepExpired(pageSize);
      if (removed > 0) log.info({ removed }, 'removed expired resumable uploads');
      if (removed >= pageSize) return backlogPauseMs;
    } catch (error) {
      if (!signal.aborted)
        log.warn({ err: error }, 'sweeping resumable uploads failed; retrying at the next interval');
    }
    return intervalSeconds * 1000 * (0.9 + Math.random() * 0.2);
  });
}
