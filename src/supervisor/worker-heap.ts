import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a worker's old space grow past what the last full collection kept before it
 * starts the next one (1 + percent / 100).
 *
 * A worker holds ~70 MB of code and schemas it never frees, and a large upload promotes a few
 * MB of stream objects a second. With V8's own factor, which falls to ~1.15 once it has shrunk
 * an idle heap, that meant a full collection every ~100 ms of a large upload: measured on a
 * 64 MiB PUT, the server's CPU went from ~165 ms to 450–700 ms per upload and stayed there,
 * in rounds that came and went with the heap's state (docs/benchmarks.md, issue 42). Twice the
 * live heap keeps it at ~165 ms for ~70 MB more memory per worker.
 */
const heapGrowingPercent = 100;

/**
 * Bytes relayed (a download from S3: every 64 KiB read from the store's socket is a new Buffer,
 * and Node's HTTP client copies each into another) are memory outside V8's heap. By default V8
 * starts a full collection whenever such external memory has grown by a fixed amount since the
 * last one, whatever the heap holds: on a 256 MiB download, 14 full collections of the worker's
 * ~70 MB heap, two thirds of the server's CPU (1.84 s of 2.13 s per download; a relay process
 * with a 5 MB heap pays nothing for the same). Counted in the heap's own limit, it waits until
 * heap and buffers together have grown as the factor above allows: about 2 full collections
 * per download, 0.59–0.63 s of CPU (docs/benchmarks.md, issue 44). Memory stays bounded by the same rule.
 */
const externalMemoryFlag = 'external-memory-accounted-in-global-limit';

/** Sets both, each unless the operator chose their own (node's flag of that name, or NODE_OPTIONS). */
export function tuneWorkerHeap(execArgv: readonly string[] = process.execArgv): void {
  const chosen = (flag: string) =>
    [...execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(flag));
  if (!chosen('heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
  if (!chosen(externalMemoryFlag)) setFlagsFromString(`--${externalMemoryFlag}`);
}
