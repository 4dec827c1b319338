/**
 * The shapes every benchmark scenario shares. A scenario is one entry in the table of
 * bench/scenarios.ts: adding one means writing its `prepare` and listing it there.
 */
import type { BenchContext } from './bench-context.ts';
import type { EventLoopDelay } from './probes/event-loop-delay.ts';

/** What one load run measured, on one side (the scenario or one of its baselines). */
export type Measurement = {
  requests2xx: number;
  non2xx: number;
  /** Connection errors and timeouts: a smoke run fails on any. */
  errors: number;
  durationSeconds: number;
  requestsPerSecond: number;
  /** Payload bytes per second (MiB/s), for byte scenarios only. */
  mibPerSecond?: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server's event-loop delay during the run, where the scenario measures it (bench/probes/). */
  eventLoopDelay?: EventLoopDelay;
  /**
   * CPU per answered request, in µs (bench/probes/process-cpu.ts): `server` is the side's server
   * processes (PostgreSQL's included on the pg stacks) or, for a side that works in the bench's
   * own process, that process; `loadGenerator` is what drove the server: the load generator's
   * own process for HTTP loads (bench/run-load.ts), the bench's process for other clients.
   */
  cpuUsPerRequest?: { server?: number; loadGenerator?: number };
  /** Context switches of the server's threads per answered request (bench/probes/process-cpu.ts). */
  serverSwitchesPerRequest?: number;
};

/** One runnable side. `run` may prepare what it consumes (fresh links, a pool of uploads) before timing. */
export type Side = { label: string; run: () => Promise<Measurement> };

/** A scenario ready to run: its own side and the baselines it is compared with (the first is the target's). */
export type PreparedScenario = { scenario: Side; baselines: Side[] } | { skipped: string };

/**
 * How two sides compare, higher always meaning "closer to the ceiling":
 * `rate` = scenario rate ÷ baseline rate (MiB/s for byte scenarios), `p50` = baseline p50 ÷ scenario p50.
 */
export type RatioMetric = 'rate' | 'p50';

export type Scenario = {
  id: string;
  title: string;
  unit: 'req/s' | 'MiB/s' | 'files/s';
  metric: RatioMetric;
  /** The target, as a ratio to the first baseline; absent where the issue sets none. */
  target?: number;
  prepare: (context: BenchContext) => Promise<PreparedScenario>;
};

/** The median of the numbers (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
