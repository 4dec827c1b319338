import type { BenchContext } from './bench-context.ts';
import { chooseVerdictBasis, toCpuRatio, type VerdictBasis } from './report/verdict.ts';
import { type Measurement, median, type RatioMetric, type Scenario, type Side } from './scenario.ts';

/** One side's rounds and their medians. */
export type SideResult = {
  label: string;
  rounds: Measurement[];
  medianRate: number;
  medianP50Ms: number;
  medianP99Ms: number;
  /** Medians over the rounds of the CPU per request, in µs (server; load generator), where measured. */
  cpuUsPerRequest?: { server?: number; loadGenerator?: number };
  /** Median over the rounds of the event loop's p99 delay, and the longest stall seen (when measured). */
  eventLoop?: { medianP99Ms: number; maxMs: number };
};

export type ScenarioResult = Pick<Scenario, 'id' | 'title' | 'unit' | 'metric' | 'target'> & {
  skipped?: string;
  error?: string;
  scenario?: SideResult;
  /**
   * Each baseline with the median of the per-round ratios of the scenario to it (paired by
   * round): `ratio` by rate (or p50), `cpuRatio` by server CPU per request (the baseline's ÷
   * Coffer's, higher is better) where both were measured, and `verdictRatio`, the one the
   * target is judged on (bench/report/verdict.ts).
   */
  baselines?: Array<
    SideResult & { ratio: number; cpuRatio?: number; verdictRatio: number; verdictBy: VerdictBasis }
  >;
};

/**
 * Prepares a scenario and runs it against its baselines, alternating which goes first every
 * round, so the drift of a shared, noisy two-core machine falls on both sides alike.
 */
export async function runScenario(scenario: Scenario, context: BenchContext): Promise<ScenarioResult> {
  const { id, title, unit, metric, target } = scenario;
  const result: ScenarioResult = { id, title, unit, metric, ...(target !== undefined && { target }) };
  try {
    const prepared = await scenario.prepare(context);
    if ('skipped' in prepared) {
      console.log(`  skipped: ${prepared.skipped}`);
      return { ...result, skipped: prepared.skipped };
    }
    const sides = [prepared.scenario, ...prepared.baselines];
    // Warm-up (not recorded): JIT, page cache, connection pools.
    if (!context.options.smoke) for (const side of sides) await side.run();
    const rounds = new Map<Side, Measurement[]>(sides.map((side) => [side, []]));
    for (let round = 0; round < context.options.rounds; round++) {
      const order = round % 2 === 0 ? [...prepared.baselines, prepared.scenario] : sides;
      for (const side of order) {
        const measured = await side.run();
        rounds.get(side)!.push(measured);
        console.log(`  round ${round + 1} ${side.label.padEnd(14)} ${describe(measured, unit)}`);
      }
    }
    const own = rounds.get(prepared.scenario)!;
    return {
      ...result,
      scenario: summarize(prepared.scenario.label, own, unit),
      baselines: prepared.baselines.map((baseline) => {
        const theirs = rounds.get(baseline)!;
        const ratios = own.map((measured, round) => toRatio(metric, unit, measured, theirs[round]!));
        const cpuRatio = toCpuRatio(own, theirs);
        const ratio = median(ratios);
        const verdictBy = chooseVerdictBasis(metric, cpuRatio);
        const verdictRatio = verdictBy === 'server CPU' ? cpuRatio! : ratio;
        return {
          ...summarize(baseline.label, theirs, unit),
          ratio,
          ...(cpuRatio !== undefined && { cpuRatio }),
          verdictRatio,
          verdictBy,
        };
      }),
    };
  } catch (error) {
    console.error(`  failed: ${(error as Error).stack}`, (error as Error).cause);
    return { ...result, error: (error as Error).message };
  }
}

function rateOf(measured: Measurement, unit: Scenario['unit']): number {
  return unit === 'MiB/s' ? (measured.mibPerSecond ?? 0) : measured.requestsPerSecond;
}

/** Higher is better for both metrics: rate ÷ rate, or the inverse ratio of the median latencies. */
function toRatio(metric: RatioMetric, unit: Scenario['unit'], own: Measurement, theirs: Measurement): number {
  if (metric === 'p50') return theirs.latencyP50Ms / own.latencyP50Ms;
  return rateOf(own, unit) / rateOf(theirs, unit);
}

function summarize(label: string, rounds: Measurement[], unit: Scenario['unit']): SideResult {
  const delays = rounds.flatMap((measured) => measured.eventLoopDelay ?? []);
  const cpu = (part: 'server' | 'loadGenerator') => {
    const values = rounds.flatMap((measured) => measured.cpuUsPerRequest?.[part] ?? []);
    return values.length > 0 ? { [part]: median(values) } : {};
  };
  const cpuUsPerRequest = { ...cpu('server'), ...cpu('loadGenerator') };
  return {
    label,
    rounds,
    ...(Object.keys(cpuUsPerRequest).length > 0 && { cpuUsPerRequest }),
    medianRate: median(rounds.map((measured) => rateOf(measured, unit))),
    medianP50Ms: median(rounds.map((measured) => measured.latencyP50Ms)),
    medianP99Ms: median(rounds.map((measured) => measured.latencyP99Ms)),
    ...(delays.length > 0 && {
      eventLoop: {
        medianP99Ms: median(delays.map((delay) => delay.p99Ms)),
        maxMs: Math.max(...delays.map((delay) => delay.maxMs)),
      },
    }),
  };
}

function describe(measured: Measurement, unit: Scenario['unit']): string {
  const rate = `${rateOf(measured, unit).toFixed(1)} ${unit}`;
  const failures =
    measured.non2xx + measured.errors > 0 ? `  non-2xx ${measured.non2xx} errors ${measured.errors}` : '';
  const delay = measured.eventLoopDelay;
  const eventLoop = delay
    ? `  event loop p99 ${delay.p99Ms.toFixed(1)} ms max ${delay.maxMs.toFixed(1)} ms`
    : '';
  const switches =
    measured.serverSwitchesPerRequest === undefined
      ? ''
      : `, switches ${measured.serverSwitchesPerRequest.toFixed(2)}`;
  return `${rate.padStart(14)}  p50 ${measured.latencyP50Ms.toFixed(2)} ms  p99 ${measured.latencyP99Ms.toFixed(2)} ms  (${measured.requests2xx} ok)${formatCpu(measured.cpuUsPerRequest)}${switches}${eventLoop}${failures}`;
}

/** CPU per request beside a rate: the server's, and the load generator's where it is another process. */
export function formatCpu(cpu: { server?: number; loadGenerator?: number } | undefined): string {
  if (!cpu) return '';
  const us = (value: number) =>
    value >= 10_000 ? `${(value / 1000).toFixed(1)} ms` : `${Math.round(value)} µs`;
  const server = cpu.server === undefined ? 'not measured' : us(cpu.server);
  const load = cpu.loadGenerator === undefined ? '' : `, load generator ${us(cpu.loadGenerator)}`;
  return `  cpu/req: server ${server}${load}`;
}
