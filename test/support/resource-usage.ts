import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// What this process holds: memory after a full garbage collection, live handles by kind and
// open file descriptors. Tests compare it before and after a load, to catch leaks.

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export type ResourceUsage = {
  heapUsedBytes: number;
  /** Memory outside the JS heap that JS objects hold (Buffers). */
  externalBytes: number;
  rssBytes: number;
  /** Live libuv handles and requests by kind (TCPSocketWrap, FSReqCallback, Timeout…). */
  handles: Record<string, number>;
  /** Open file descriptors, where /proc tells (Linux). */
  openFiles: number | undefined;
};

export function measureResources(): ResourceUsage {
  collectGarbage();
  collectGarbage();
  const memory = process.memoryUsage();
  return {
    heapUsedBytes: memory.heapUsed,
    externalBytes: memory.external,
    rssBytes: memory.rss,
    handles: countHandles(),
    openFiles: countOpenFiles(),
  };
}

export function countHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

export function countOpenFiles(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/** Waits until at most `count` TCP sockets are open in this process (both ends of a connection count). */
export async function waitForSockets(count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = countHandles().TCPSocketWrap ?? 0;
    if (open <= count) return;
    if (Date.now() > deadline) throw new Error(`${open} TCP sockets still open after ${timeoutMs} ms`);
    await sleep(50);
  }
}
