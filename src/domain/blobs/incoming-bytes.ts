import v8 from 'node:v8';
import vm from 'node:vm';

/** Incoming bytes between two young-generation collections. */
const collectEveryBytes = 16 * 1024 * 1024;

/**
 * Upload bodies arrive as a new buffer per socket read (~64 KiB), outside the JS heap; each is
 * dead once the hashing thread's batch and the file writer have copied or written it. Few JS
 * objects are made meanwhile, so V8's young generation rarely fills and no cheap minor
 * collection frees those buffers. Instead their external memory reaches V8's fixed 64 MiB
 * threshold and forces a full collection of the whole heap, over and over: that was a third of
 * a large upload's CPU, and the server's memory grew by ~60 MiB per upload.
 *
 * So every 16 MiB received, this process runs a minor collection itself (about a millisecond:
 * it visits only live young objects). Measured on a 256 MiB upload: 1.1-1.7 → 0.7-0.85 s of
 * server CPU, and a 1 GiB upload's RSS growth 60 → 12 MiB (docs/benchmarks.md).
 *
 * V8 offers this only through its `gc` extension, which `--expose-gc` installs in contexts
 * created after it is set: one private context holds it, the program's own global has no
 * `gc`. Where that is not available, nothing changes but the cost.
 */
const collectYoung = exposeMinorCollection();
let bytesSinceCollection = 0;

/** Counts bytes a request body brought in; now and then frees the dead ones (see above). */
export function noteIncomingBytes(count: number): void {
  bytesSinceCollection += count;
  if (bytesSinceCollection < collectEveryBytes) return;
  bytesSinceCollection = 0;
  collectYoung?.();
}

function exposeMinorCollection(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    if (typeof gc !== 'function') return undefined;
    return () => gc({ type: 'minor' });
  } catch {
    return undefined;
  }
}
