import assert from 'node:assert/strict';
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { it } from 'node:test';
import { noteIncomingBytes } from './incoming-bytes.ts';

it('runs a minor collection when the bytes counted cross 16 MiB', async () => {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      kinds.push((entry as PerformanceEntry & { detail: { kind: number } }).detail.kind);
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const minorCount = async () => {
      // GC entries are delivered asynchronously.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return kinds.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MINOR).length;
    };
    noteIncomingBytes(16 * 1024 * 1024); // whatever count a previous test left, this crosses the mark
    await minorCount();
    kinds.length = 0;
    noteIncomingBytes(8 * 1024 * 1024);
    const quiet = await minorCount();
    noteIncomingBytes(8 * 1024 * 1024);
    assert.ok((await minorCount()) > quiet, 'a minor collection at the 16 MiB mark');
  } finally {
    observer.disconnect();
  }
});
