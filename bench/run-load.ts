import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { measureCpu } from './probes/process-cpu.ts';
import type { Measurement } from './scenario.ts';

// autocannon appends every response body to a string (`req.body += data`) for its optional
// body checks, which none of our runs use. On a 256 MiB download that decodes and copies the
// whole body as text and the load generator, not the server, becomes what is measured.
const require = createRequire(import.meta.url);
const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as {
  prototype: { addBody(data: Buffer): void };
};
queue.prototype.addBody = () => {};

type Method = 'GET' | 'POST' | 'PUT';
export type LoadRequest = {
  method?: Method;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

export type LoadOptions = {
  /** Base URL (origin); the path comes with the request. */
  url: string;
  request: LoadRequest;
  connections: number;
  /** Run for this long… */
  durationSeconds?: number;
  /** …or exactly this many requests (pools, large transfers). */
  amount?: number;
  /** A fresh request for every call (unique filePaths, one-use links); overrides `request`'s fields. */
  nextRequest?: () => LoadRequest;
  /** Payload bytes each 2xx answer moved, to report MiB/s. */
  payloadBytes?: number;
};

/** Runs one autocannon load and measures it, with the CPU it cost the server and the load generator. */
export function runLoad(options: LoadOptions): Promise<Measurement> {
  return measureCpu(options.url, () => runAutocannon(options));
}

/** One autocannon load; latencies come from every response, at sub-millisecond precision. */
async function runAutocannon(options: LoadOptions): Promise<Measurement> {
  const latenciesMs: number[] = [];
  let firstSentMs = Number.POSITIVE_INFINITY;
  let lastAnsweredMs = 0;
  const { nextRequest } = options;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
        requests: [
          {
            ...options.request,
            ...(nextRequest && {
              setupRequest: (request: autocannon.Request) => ({ ...request, ...nextRequest() }),
            }),
          },
        ],
        timeout: 120,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
      const now = performance.now();
      latenciesMs.push(responseTimeMs);
      firstSentMs = Math.min(firstSentMs, now - responseTimeMs);
      lastAnsweredMs = now;
    });
  });
  // Busy time, from the first request sent to the last answer: autocannon's own duration is
  // whole seconds for short `amount` runs. One connection runs its requests back to back, and
  // its summed latencies also leave out the client building each 256 MiB request buffer.
  const busySeconds =
    options.connections === 1
      ? latenciesMs.reduce((sum, ms) => sum + ms, 0) / 1000
      : Math.max(0, lastAnsweredMs - firstSentMs) / 1000;
  const requests2xx = result['2xx'];
  const seconds = Math.max(busySeconds, 1e-3);
  return {
    requests2xx,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationSeconds: busySeconds,
    requestsPerSecond: requests2xx / seconds,
    ...(options.payloadBytes
      ? { mibPerSecond: (requests2xx * options.payloadBytes) / seconds / 2 ** 20 }
      : {}),
    latencyP50Ms: percentile(latenciesMs, 0.5),
    latencyP99Ms: percentile(latenciesMs, 0.99),
  };
}

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
