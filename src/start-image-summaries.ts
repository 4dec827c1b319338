import { runPeriodically } from './domain/run-periodically.ts';
import type { Services } from './services.ts';

type Log = { warn(details: object, message: string): void };

/** Images summarized per batch; a longer queue is taken a batch at a time without a pause. */
const batchSize = 20;
const idlePauseMs = 2000;
const failurePauseMs = 30_000;

/**
 * `serve`'s summaries of verified images (meta.width, meta.height, meta.placeholder; issue 21):
 * the due ones a batch at a time, on the one worker per node that runs the background work.
 * Nodes side by side may summarize an image twice; the result is the same. Timers are unref'd;
 * stop() waits for the batch in progress.
 */
export function startImageSummaries(services: Services, log: Log): { stop(): Promise<void> } {
  return runPeriodically(async (signal): Promise<number> => {
    try {
      const done = await services.imageSummarizer.summarizeDue(batchSize, signal);
      return done >= batchSize ? 0 : idlePauseMs;
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'summarizing images failed; retrying shortly');
      return failurePauseMs;
    }
  });
}
