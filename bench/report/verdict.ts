/**
 * Which ratio a target is judged on (issue 26). The load generator runs on this machine's
 * cores: on a machine without a core to spare for it, a side's rate is partly the load
 * generator's (it takes CPU from whichever server it drives), so the verdict there is the
 * server's CPU per request, measured from /proc for both sides; with cores to spare, the rate.
 * Latency scenarios (`p50`) are always judged on latency.
 */
import { availableParallelism } from 'node:os';
import { type Measurement, median, type RatioMetric } from '../scenario.ts';

export type VerdictBasis = 'rate' | 'p50' | 'server CPU';

/** Cores the load generator would need to itself, beside a server using two. */
const coresForSeparateLoad = 4;

export const isMachineShared = availableParallelism() < coresForSeparateLoad;

export function chooseVerdictBasis(metric: RatioMetric, cpuRatio: number | undefined): VerdictBasis {
  if (metric === 'p50') return 'p50';
  return isMachineShared && cpuRatio !== undefined ? 'server CPU' : 'rate';
}

/**
 * The median over paired rounds of the baseline's server CPU per request ÷ Coffer's (higher
 * is better, as for rates); undefined unless both sides' server CPU was measured every round.
 */
export function toCpuRatio(own: readonly Measurement[], theirs: readonly Measurement[]): number | undefined {
  const ratios: number[] = [];
  own.forEach((measured, round) => {
    const ours = measured.cpuUsPerRequest?.server;
    const baseline = theirs[round]?.cpuUsPerRequest?.server;
    if (ours !== undefined && baseline !== undefined && ours > 0) ratios.push(baseline / ours);
  });
  return ratios.length === own.length && ratios.length > 0 ? median(ratios) : undefined;
}
