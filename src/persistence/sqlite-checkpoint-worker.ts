/**
 * The worker thread of sqlite-checkpointer.ts: its own connection to the database file, which
 * copies the WAL back into the database (and fsyncs both) on a timer, so the request thread
 * never does. Stops on the message 'stop'.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export type CheckpointWorkerData = {
  file: string;
  intervalMs: number;
  /** Above this many WAL pages after a passive checkpoint, one TRUNCATE checkpoint (see below). */
  truncateAbovePages: number;
  /** How long the TRUNCATE checkpoint may wait for the write lock and for readers. */
  truncateWaitMs: number;
  /** After a TRUNCATE that readers kept from finishing, the longest pause before the next try. */
  maxBackoffMs: number;
};

type CheckpointResult = { busy: number; log: number; checkpointed: number };

const { file, intervalMs, truncateAbovePages, truncateWaitMs, maxBackoffMs } =
  workerData as CheckpointWorkerData;
const database = new DatabaseSync(file);
// SQLite's busy handler is the TRUNCATE's wait for readers, and it holds the write lock all
// along: bounded short, or one long reader in any process (a backup, an export) kept every
// write of the server waiting past its own busy timeout (503s for as long as it read).
database.exec(`pragma busy_timeout = ${truncateWaitMs}`);
// PASSIVE never takes the write lock and never waits: writers keep appending meanwhile.
const passive = database.prepare('pragma wal_checkpoint(PASSIVE)');
// The WAL starts over from its beginning only when a writer finds it wholly checkpointed; under
// a steady stream of commits a passive checkpoint rarely catches up exactly, so the file would
// keep growing. TRUNCATE holds the write lock while it copies the few frames added since the
// passive one (writers' BEGIN IMMEDIATE retries asynchronously meanwhile), waits for readers,
// and empties the file itself: a WAL another process grew (a bulk import, the bench's seed)
// gives its disk space back without waiting for the server's next write.
const truncate = database.prepare('pragma wal_checkpoint(TRUNCATE)');

let backoffMs = 0;
let pausedUntil = 0;
let timer = setTimeout(tick, intervalMs);

function tick(): void {
  try {
    const result = passive.get() as CheckpointResult;
    if (result.log > truncateAbovePages && Date.now() >= pausedUntil) {
      const truncated = truncate.get() as CheckpointResult;
      // Busy: a reader (or a writer) outlasted the wait. Try again later, less and less often
      // while it lasts, so a long reader costs writers a short wait now and then, not a stall.
      backoffMs = truncated.busy ? Math.min(Math.max(2 * backoffMs, intervalMs), maxBackoffMs) : 0;
      pausedUntil = Date.now() + backoffMs;
    }
  } catch {
    // An I/O error or SQLITE_BUSY from another checkpointer: the next tick tries again, and the
    // WAL keeps every commit meanwhile.
  }
  // A timeout after each run, not an interval: a run that took long is never followed at once
  // by another, so writers always get the lock between two runs.
  timer = setTimeout(tick, intervalMs);
}

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  database.close();
  parentPort?.close();
});
