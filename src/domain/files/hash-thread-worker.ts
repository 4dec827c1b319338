/**
 * The worker thread of hash-thread.ts: SHA-256 digests of upload streams, fed in batches, so
 * the request thread only copies bytes. Messages: `{id, bytes}` updates digest `id` (started
 * at its first message; acknowledged with `{id, ack, bytes}`, the byte count for backpressure
 * and the batch itself handed back for reuse); `{id, end: true}` answers `{id, digest}` (the
 * digest's bytes) and forgets it; `{id, drop: true}` forgets it. A digest whose first message
 * says `resumable` (with the `state` to go on from, if any) is one whose state can be saved:
 * `{id, save: true}` answers `{id, state}` after every byte sent before it.
 */
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { createSHA256, type IHasher } from 'hash-wasm';

type Message = {
  id: number;
  bytes?: ArrayBuffer;
  end?: true;
  drop?: true;
  save?: true;
  resumable?: true;
  state?: Uint8Array;
};

/** What both kinds of digest do here: node's (fast, its state sealed) and hash-wasm's (its state saved). */
type Digest = { update(bytes: Uint8Array): void; digest(): Uint8Array; save?: () => Uint8Array };

const digests = new Map<number, Digest>();
// hash-wasm's hashers are created asynchronously: messages are handled strictly in turn.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (message: Message) => {
  queue = queue.then(() =>
    handle(message).catch((error: Error) => {
      // A saved state that does not load: this digest fails, the others go on.
      digests.delete(message.id);
      parentPort!.postMessage({ id: message.id, failed: error.message });
    }),
  );
});

async function handle({ id, bytes, end, drop, save, resumable, state }: Message): Promise<void> {
  if (drop) {
    digests.delete(id);
    return;
  }
  let digest = digests.get(id);
  if (!digest) {
    digest = resumable ? await openResumable(state) : createHash('sha256');
    digests.set(id, digest);
  }
  if (bytes) {
    digest.update(new Uint8Array(bytes));
    parentPort!.postMessage({ id, ack: bytes.byteLength, bytes }, [bytes]);
  }
  // A digest opened without `resumable` has no state to save: an empty one says so.
  if (save) parentPort!.postMessage({ id, state: digest.save?.() ?? new Uint8Array(0) });
  if (end) {
    digests.delete(id);
    parentPort!.postMessage({ id, digest: digest.digest() });
  }
}

async function openResumable(state: Uint8Array | undefined): Promise<Digest> {
  const hasher: IHasher = await createSHA256();
  hasher.init();
  if (state) hasher.load(state);
  return {
    update: (bytes) => hasher.update(bytes),
    digest: () => hasher.digest('binary'),
    save: () => hasher.save(),
  };
}
