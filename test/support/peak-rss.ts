import { readFileSync, writeFileSync } from 'node:fs';

// The most memory this process has held (Linux's VmHWM), and a way to start counting it again,
// so that a test can measure what one request or one render took at its peak, not just after.

/** The peak resident set size of this process since it started or since resetPeakRss(). */
export function peakRssBytes(): number {
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!peak) throw new Error('/proc/self/status has no VmHWM');
  return Number(peak[1]) * 1024;
}

/** Starts the peak over from the present resident set size (clear_refs 5, Linux ≥ 4.0). */
export function resetPeakRss(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}

export const toMiB = (bytes: number) => Math.round(bytes / 2 ** 20);
