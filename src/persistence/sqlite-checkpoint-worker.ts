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
  /** Above this many WAL pages after a passive checkpoint, one RESTART checkpoint (see below). */
  restartAbovePages: number;
  /** How long the RESTART checkpoint may wait for readers and the writer. */
  busyTimeoutMs: number;
};

type CheckpointResult = { busy: number; log: number; checkpointed: number };

const { file, intervalMs, restartAbovePages, busyTimeoutMs } = workerData as CheckpointWorkerData;
const database = new DatabaseSync(file);
database.exec(`pragma busy_timeout = ${busyTimeoutMs}`);
// PASSIVE never takes the write lock and never waits: writers keep appending meanwhile.
const passive = database.prepare('pragma wal_checkpoint(PASSIVE)');
// The WAL starts over from its beginning only when a writer finds it wholly checkpointed; under
// a steady stream of commits a passive checkpoint rarely catches up exactly, so the file would
// keep growing. RESTART holds the write lock while it copies the few frames added since the
// passive one (writers' BEGIN IMMEDIATE retries asynchronously meanwhile) and waits for readers.
const restart = database.prepare('pragma wal_checkpoint(RESTART)');

const timer = setInterval(() => {
  try {
    const result = passive.get() as CheckpointResult;
    if (result.log > restartAbovePages) restart.get();
  } catch {
    // SQLITE_BUSY (another process checkpoints, a long reader) or a passing I/O error: the
    // next tick tries again, and the WAL keeps every commit meanwhile.
  }
}, intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database.close();
  parentPort?.close();
});
