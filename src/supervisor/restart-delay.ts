/** A worker that served at least this long was not crash-looping: its replacement starts at once. */
export const stableAfterMs = 10_000;
const firstDelayMs = 500;
const maxDelayMs = 30_000;

/**
 * How long to wait before replacing a worker that exited, given how many workers of its slot
 * in a row exited before serving or within stableAfterMs of it (this one included). The first is replaced
 * at once; a crash loop slows down, doubling from 0.5 s up to 30 s, so that a worker that
 * cannot start does not burn the CPU, and comes back within 30 s of the cause going away.
 */
export function restartDelayMs(quickExitsInARow: number): number {
  if (quickExitsInARow <= 1) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** (quickExitsInARow - 2));
}
