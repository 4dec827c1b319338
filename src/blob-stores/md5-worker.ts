/**
 * The worker thread of parallel-md5.ts: one MD5 per upload in flight, fed batches of bytes.
 * Messages in: {id, bytes} (an ArrayBuffer, transferred), {id, end: true}, {id, drop: true}.
 * Messages out: {id, hashed} after each batch, {id, digest} after end.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

export type Md5Request = { id: number } & ({ bytes: ArrayBuffer } | { end: true } | { drop: true });
export type Md5Answer = { id: number } & ({ hashed: number } | { digest: string });

const hashes = new Map<number, Hash>();

parentPort?.on('message', (message: Md5Request) => {
  const { id } = message;
  if ('bytes' in message) {
    let hash = hashes.get(id);
    if (hash === undefined) {
      hash = createHash('md5');
      hashes.set(id, hash);
    }
    hash.update(new Uint8Array(message.bytes));
    parentPort?.postMessage({ id, hashed: message.bytes.byteLength } satisfies Md5Answer);
  } else if ('end' in message) {
    const digest = (hashes.get(id) ?? createHash('md5')).digest('hex');
    hashes.delete(id);
    parentPort?.postMessage({ id, digest } satisfies Md5Answer);
  } else {
    hashes.delete(id);
  }
});
