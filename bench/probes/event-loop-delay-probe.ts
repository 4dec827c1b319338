/**
 * Preloaded into a Coffer server by the bench (`node --import <this file>`; cluster workers
 * inherit the flag), so the event-loop delay is measured without a line of Coffer's own code
 * or an endpoint to guard. With COFFER_BENCH_EVENT_LOOP_DIR set, every process of the server
 * records perf_hooks.monitorEventLoopDelay and, on each SIGUSR2, writes what it saw since the
 * previous one to `<dir>/<pid>.json` and starts again (bench/probes/event-loop-delay.ts).
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.COFFER_BENCH_EVENT_LOOP_DIR;
if (dir) {
  // 1 ms sampling: finer than the stalls it is there to catch, cheap enough not to cause one.
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let sequence = 0;
  const file = path.join(dir, `${process.pid}.json`);
  const write = () => {
    const toMs = (ns: number) => ns / 1e6;
    const stats = {
      pid: process.pid,
      sequence,
      p50Ms: toMs(histogram.percentile(50)),
      p99Ms: toMs(histogram.percentile(99)),
      maxMs: toMs(histogram.max),
      samples: histogram.count,
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
    sequence += 1;
  };
  write();
  process.on('SIGUSR2', write);
}
