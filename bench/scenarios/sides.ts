import type { BenchContext } from '../bench-context.ts';
import { type LoadOptions, type LoadRequest, runLoad } from '../run-load.ts';
import { type Measurement, median, type PreparedScenario, type Side } from '../scenario.ts';
import { mapLimit } from '../seed/workload.ts';

/** A side that runs one load. */
export function loadSide(label: string, options: LoadOptions): Side {
  return { label, run: () => runLoad(options) };
}

/** The size in bytes of the answer to one request, which must succeed. */
export async function probeAnswerBytes(origin: string, request: LoadRequest): Promise<number> {
  const response = await fetch(`${origin}${request.path ?? '/'}`, {
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body as BodyInit | undefined,
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`probe ${request.path}: ${response.status} ${body}`);
  return body.length;
}

/**
 * A control-plane scenario against the bare Fastify ceiling. Both sides send the same method,
 * headers and body shape and get answers of the same size; both build each request through
 * `next` when one is given, so the load generator does the same work on either side.
 */
export async function againstBareFastify(
  context: BenchContext,
  options: {
    origin: string;
    request: LoadRequest;
    /** Fresh requests for the scenario (unique bodies); absent when one request repeats. */
    next?: () => LoadRequest;
    /** Requests per run instead of a duration (scenarios that consume a pool). */
    amount?: number;
    /** Consumes a pool, so fills it before each timed run. */
    prepareRun?: () => Promise<() => LoadRequest>;
    connections?: number;
  },
): Promise<PreparedScenario> {
  const { durationSeconds } = context.options;
  const connections = options.connections ?? context.options.connections;
  const load = { connections, durationSeconds, amount: options.amount };
  const sample = { ...options.request, ...options.next?.() };
  const answerBytes = await probeAnswerBytes(options.origin, sample);
  const fastify = await context.fastifyUrl();
  const baselineRequest = { ...sample, path: `/json/${answerBytes}` };
  const scenario: Side = options.prepareRun
    ? {
        label: 'coffer',
        run: async () => {
          const next = await options.prepareRun!();
          return runLoad({ url: options.origin, request: options.request, nextRequest: next, ...load });
        },
      }
    : loadSide('coffer', {
        url: options.origin,
        request: options.request,
        nextRequest: options.next,
        ...load,
      });
  const baseline = loadSide('bare fastify', {
    url: fastify,
    request: baselineRequest,
    nextRequest: options.next || options.prepareRun ? () => baselineRequest : undefined,
    ...load,
  });
  return { scenario, baselines: [baseline] };
}

/**
 * Hands out the items of a pool one at a time. Past its end it answers a path that does not
 * exist: repeating an item could still succeed (a second PUT, a repeated verify) and hide
 * that the pool was too small, while a 404 shows up as a non-2xx answer.
 */
export function fromPool<T>(items: readonly T[], toRequest: (item: T) => LoadRequest): () => LoadRequest {
  let next = 0;
  return () => (next < items.length ? toRequest(items[next++]!) : { path: '/bench-pool-exhausted' });
}

/**
 * A measurement taken while another load ran beside it: that load must have happened, and
 * succeeded, for the comparison to mean anything, so its failures count as the side's own.
 */
export function withCompanion(measured: Measurement, companion: Measurement): Measurement {
  if (companion.requests2xx > 0 && companion.non2xx === 0 && companion.errors === 0) return measured;
  return {
    ...measured,
    non2xx: measured.non2xx + companion.non2xx,
    errors: measured.errors + Math.max(companion.errors, companion.requests2xx === 0 ? 1 : 0),
  };
}

/**
 * Times `count` tasks run `concurrency` at a time (a task that throws counts as a failure), as a
 * Measurement of tasks per second, for sides that are not an HTTP load (renders, tus uploads).
 */
export async function runTasks(
  count: number,
  concurrency: number,
  task: () => Promise<void>,
): Promise<Measurement> {
  const latenciesMs: number[] = [];
  let failures = 0;
  const started = performance.now();
  await mapLimit(Array.from({ length: count }), concurrency, async () => {
    const begun = performance.now();
    try {
      await task();
      latenciesMs.push(performance.now() - begun);
    } catch {
      failures += 1;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests2xx: latenciesMs.length,
    non2xx: failures,
    errors: 0,
    durationSeconds: seconds,
    requestsPerSecond: latenciesMs.length / seconds,
    latencyP50Ms: median(sorted),
    latencyP99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN,
  };
}
