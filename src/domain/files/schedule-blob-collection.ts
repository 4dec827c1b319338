import { runPeriodically } from '../run-periodically.ts';
import type { BlobCollector, CollectionPass, CollectionReport } from './blob-collector.ts';

export type BlobCollectionSchedule = {
  collector: BlobCollector;
  /** Between the end of one pass and the start of the next (jittered by ±10%). */
  intervalSeconds: number;
  /** Entries one slice looks at before it pauses: a pass over a large store is spread out. */
  maxObjectsPerSlice: number;
  /** Between slices of one pass. */
  slicePauseMs: number;
  onPassEnd(report: CollectionReport): void;
  onError(error: unknown): void;
};

/**
 * Runs the collector in the background of `serve`: a first pass at start (it sweeps what a
 * crash left), then one every interval, each in bounded slices so that it never holds the
 * event loop, the database or the store for long. Timers are unref'd; stop() waits for the
 * slice in progress.
 */
export function scheduleBlobCollection(schedule: BlobCollectionSchedule): { stop(): Promise<void> } {
  let pass: CollectionPass | undefined;
  return runPeriodically(async (signal): Promise<number> => {
    pass ??= schedule.collector.newPass({ apply: true });
    try {
      const done = await pass.run({ maxObjects: schedule.maxObjectsPerSlice, signal });
      if (!done) return schedule.slicePauseMs;
      schedule.onPassEnd(pass.report);
    } catch (error) {
      if (!signal.aborted) schedule.onError(error);
    }
    pass = undefined;
    return schedule.intervalSeconds * 1000 * (0.9 + Math.random() * 0.2);
  });
}
