import { readdirSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
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
  /** Open file descriptors other than sockets, where /proc tells (Linux). */
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

/** Open file descriptors other than sockets (files, directories, pipes), where /proc tells (Linux). */
export function countOpenFiles(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return !readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
      } catch {
        return false; // closed while we looked
      }
    }).length;
  } catch {
    return undefined;
  }
}

/** Waits until the server holds at most `count` client connections. */
export async function waitForConnections(
  server: { countConnections(): Promise<number> },
  count = 0,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await server.countConnections();
    if (open <= count) return;
    if (Date.now() > deadline)
      throw new Error(`the server still holds ${open} connections after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Waits until the directory is empty or gone: a store's temp files of aborted uploads are removed. */
export async function waitForEmptyDirectory(directory: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await readdir(directory).catch(() => []);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`files left behind in ${directory}: ${left.join(', ')}`);
    await sleep(50);
  }
}

/** Waits until `check` holds (polled every 50 ms); fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await sleep(50);
  }
}
