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

/** Sets it, unless the operator chose their own (node's --heap-growing-percent, or NODE_OPTIONS). */
export function tuneWorkerHeap(execArgv: readonly string[] = process.execArgv): void {
  const chosen = [...execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    arg.includes('heap-growing-percent'),
  );
  if (!chosen) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
