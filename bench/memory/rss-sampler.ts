import { readRssBytes } from '../processes/coffer-server.ts';

/** Samples a process's RSS every `intervalMs` until stopped; answers the peak it saw. */
export function startRssSampler(pid: number, intervalMs = 20): { stop: () => Promise<number> } {
  let peak = 0;
  let pending: Promise<void> = Promise.resolve();
  const sample = () => {
    pending = readRssBytes(pid).then(
      (bytes) => {
        peak = Math.max(peak, bytes);
      },
      () => {},
    );
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
      sample(); // one last look, after the transfer ended
      await pending;
      return peak;
    },
  };
}
