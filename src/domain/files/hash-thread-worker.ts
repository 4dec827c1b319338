/**
 * The worker thread of hash-thread.ts: SHA-256 digests of upload streams, fed in batches, so
 * the request thread only copies bytes. Messages: `{id, bytes}` updates digest `id` (started
 * at its first message; acknowledged with `{id, ack, bytes}`, the byte count for backpressure
 * and the batch itself handed back for reuse); `{id, end: true}` answers `{id, digest}` (the
 * digest's bytes) and forgets it; `{id, drop: true}` forgets it.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

type Message = { id: number; bytes?: ArrayBuffer; end?: true; drop?: true };

const hashes = new Map<number, Hash>();
parentPort!.on('message', ({ id, bytes, end, drop }: Message) => {
  if (drop) {
    hashes.delete(id);
    return;
  }
  let hash = hashes.get(id);
  if (!hash) {
    hash = createHash('sha256');
    hashes.set(id, hash);
  }
  if (bytes) {
    hash.update(new Uint8Array(bytes));
    parentPort!.postMessage({ id, ack: bytes.byteLength, bytes }, [bytes]);
  }
  if (end) {
    hashes.delete(id);
    parentPort!.postMessage({ id, digest: hash.digest() });
  }
});
