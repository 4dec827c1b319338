import { Worker } from 'node:worker_threads';
import type { CheckpointWorkerData } from './sqlite-checkpoint-worker.ts';

/** Checkpoints of the embedded database, run by a worker thread off the request path. */
export type SqliteCheckpointer = { stop(): Promise<void> };

/**
 * Starts the checkpoint thread for `file`. The request connection must run with
 * `wal_autocheckpoint = 0`: otherwise the commit that crosses 1,000 WAL pages copies them into
 * the database and fsyncs both on the main thread, stalling every request of the process (a
 * quarter of the upload request's samples waited on the disk). Durability does not change: a
 * commit is in the WAL before it is acknowledged, whoever checkpoints it later.
 *
 * If the thread dies, `onFailure` runs (the caller turns autocheckpoint back on), so the WAL
 * never grows without bound.
 */
export function startSqliteCheckpointer(
  file: string,
  options: { busyTimeoutMs: number; onFailure: (error: unknown) => void },
): SqliteCheckpointer {
  const workerData: CheckpointWorkerData = {
    file,
    intervalMs: 100,
    // 16,384 pages of 4 KiB: 64 MiB of WAL. A TRUNCATE keeps writers waiting while it runs, so
    // it is a rare backstop: at 16 MiB (a first try) it ran on every tick under a steady load
    // of upload requests, and their p50 went from 8 to over 100 ms.
    truncateAbovePages: 16_384,
    // Short beside a write's own wait (busyTimeoutMs, 5 s by default): the longest a TRUNCATE
    // holds the write lock waiting for readers, so a write that meets it still commits.
    truncateWaitMs: Math.min(50, options.busyTimeoutMs),
    maxBackoffMs: 5000,
  };
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), { workerData });
  // A checkpointer never keeps the process alive: an unclosed database still exits.
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (error) => {
    if (!stopping) options.onFailure(error);
  });
  worker.on('exit', (code) => {
    if (!stopping) options.onFailure(new Error(`the checkpoint thread exited (code ${code})`));
  });
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      worker.ref(); // awaiting its exit must keep the process alive
      worker.postMessage('stop');
      await exited;
    },
  };
}
