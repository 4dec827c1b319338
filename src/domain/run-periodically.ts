/**
 * Runs `step` at once, then again after the delay each run answers, until stopped: background
 * work of `serve` (blob collection, the unverified sweep). Timers are unref'd, so they never
 * keep a process alive; stop() aborts the signal the steps get and waits for the one running.
 */
export function runPeriodically(step: (signal: AbortSignal) => Promise<number>): { stop(): Promise<void> } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const next = (delayMs: number) => {
    timer = setTimeout(() => {
      running = step(controller.signal).then((pauseMs) => {
        running = undefined;
        if (!controller.signal.aborted) next(pauseMs);
      });
    }, delayMs);
    timer.unref();
  };
  next(0);
  return {
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
