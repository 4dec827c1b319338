import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A child process with a ~50 MB heap relays 512 MiB through short-lived 64 KiB Buffers, as a
 * download from S3 does, and counts V8's full collections: V8's flags are the process's, so
 * each way is a process of its own.
 */
async function fullCollectionsWhileRelaying(tuned: boolean): Promise<number> {
  const script = `
    import { constants, PerformanceObserver } from 'node:perf_hooks';
    if (${tuned}) (await import(${JSON.stringify(new URL('./worker-heap.ts', import.meta.url).href)})).tuneWorkerHeap([]);
    const live = Array.from({ length: 600000 }, (_, i) => ({ i, text: 'x' + i }));
    let full = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
    });
    observer.observe({ entryTypes: ['gc'] });
    for (let i = 0; i < 8192; i++) {
      Buffer.alloc(64 * 1024);
      if (i % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    console.log(JSON.stringify({ full, live: live.length }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout).full;
}

it('bytes relayed through short-lived Buffers start few full collections of a large heap in a tuned worker', async () => {
  const untuned = await fullCollectionsWhileRelaying(false);
  const tuned = await fullCollectionsWhileRelaying(true);
  // V8's default: one full collection per ~64 MB of external memory, whatever the heap holds.
  assert.ok(untuned >= 5, `untuned: ${untuned} full collections (this Node's default changed?)`);
  assert.ok(tuned * 2 <= untuned, `tuned: ${tuned} full collections against ${untuned} untuned`);
});
