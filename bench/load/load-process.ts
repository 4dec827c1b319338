/**
 * The load generator, in a process of its own (issue 44's rule): runs autocannon on the requests
 * of one spec (bench/load/load-spec.ts, given as the only argument) and prints what it measured,
 * with its own CPU, as one JSON line on stdout. Reading the spec and the bodies happens before the
 * first request, out of the CPU it reports.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import type { LoadProcessResult, LoadRequest, LoadSpec, WireRequest } from './load-spec.ts';

// autocannon appends every response body to a string (`req.body += data`) for its optional
// body checks, which none of our runs use. On a 256 MiB download that decodes and copies the
// whole body as text and the load generator, not the server, becomes what is measured.
const require = createRequire(import.meta.url);
const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as {
  prototype: { addBody(data: Buffer): void };
};
queue.prototype.addBody = () => {};

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;

const bodies = new Map<string, Buffer>();
function fromWire(wire: WireRequest): LoadRequest {
  const { body, bodyBase64, bodyFile, ...rest } = wire;
  if (bodyFile) {
    if (!bodies.has(bodyFile)) bodies.set(bodyFile, readFileSync(bodyFile));
    return { ...rest, body: bodies.get(bodyFile)! };
  }
  if (bodyBase64 !== undefined) return { ...rest, body: Buffer.from(bodyBase64, 'base64') };
  return body === undefined ? rest : { ...rest, body };
}

const base = fromWire(spec.base);
const distinct = spec.distinct?.map(fromWire);
const order = spec.orderFile ? readOrder(spec.orderFile) : undefined;

function readOrder(file: string): Uint32Array {
  const bytes = readFileSync(file);
  // A copy: the Buffer may start at an offset a Uint32Array cannot view.
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

let listed = 0;
let exhausted = 0;
let instance: autocannon.Instance | undefined;
/**
 * The next listed request. Past the list's end (a duration run faster than the list was sized
 * for) one-use requests must not be sent again: it sends `exhaustedPath` (a 404, a failure of
 * the run) and stops the run (autocannon reads `stop` on its one-second tick).
 */
function nextListed(): LoadRequest {
  if (spec.cycle) return distinct![0]!;
  if (listed < order!.length) return distinct![order![listed++]!]!;
  if (exhausted++ === 0) setImmediate(() => instance?.stop());
  return { path: spec.exhaustedPath };
}

const latenciesMs: number[] = [];
let firstSentMs = Number.POSITIVE_INFINITY;
let lastAnsweredMs = 0;
const cpuBefore = process.cpuUsage();
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const started = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSeconds ?? 5 }),
      requests: [
        {
          ...base,
          ...(distinct && {
            setupRequest: (request: autocannon.Request) => ({ ...request, ...nextListed() }),
          }),
        },
      ],
      timeout: 120,
    },
    (error, done) => (error ? reject(error) : resolve(done)),
  );
  instance = started;
  started.on('response', (_client, _status, _bytes, responseTimeMs) => {
    const now = performance.now();
    latenciesMs.push(responseTimeMs);
    firstSentMs = Math.min(firstSentMs, now - responseTimeMs);
    lastAnsweredMs = now;
  });
});
const cpu = process.cpuUsage(cpuBefore);

// Busy time, from the first request sent to the last answer: autocannon's own duration is
// whole seconds for short `amount` runs. One connection runs its requests back to back, and
// its summed latencies also leave out the client building each 256 MiB request buffer.
const busySeconds =
  spec.connections === 1
    ? latenciesMs.reduce((sum, ms) => sum + ms, 0) / 1000
    : Math.max(0, lastAnsweredMs - firstSentMs) / 1000;

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

const measured: LoadProcessResult = {
  requests2xx: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  busySeconds,
  latencyP50Ms: percentile(latenciesMs, 0.5),
  latencyP99Ms: percentile(latenciesMs, 0.99),
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  exhausted,
};
// A parent that is gone (the bench stopped) closes the pipe: nothing is left to report to.
process.stdout.on('error', () => process.exit(1));
process.stdout.write(`${JSON.stringify(measured)}\n`);
