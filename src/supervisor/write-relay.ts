import type { Worker } from 'node:cluster';

/**
 * Writes told between the workers of one node (issue 44 item 1). A worker that committed a
 * write tells the primary (`coffer:writes`); the primary tells every other serving worker
 * (`coffer:sibling-writes`), each drops what it trusted and acknowledges, and the primary
 * answers the first (`coffer:writes-shared`) once all have, or once `ackTimeoutMs` passed.
 * The waiting worker answers its client only then: a removed share or a revoked link is
 * refused by every worker of the node by the time the change is answered.
 *
 * Why a timeout is safe: a worker trusts a kept file record for at most 250 ms after the stamp
 * read that vouched for it began (repositories/files/file-view-cache.ts, fileTrustIntervalMs).
 * Each relay starts after its writes committed, so once 250 ms have passed every record a
 * silent worker read before the commit is untrusted by itself. The timeouts are that interval
 * plus a margin for timers, so a worker that is stuck or dying delays the answer, never the
 * refusal.
 */
const trustIntervalMs = 250;
const primaryAckTimeoutMs = trustIntervalMs + 10;
const workerAckTimeoutMs = trustIntervalMs + 20;

type WritesMessage = { type: 'coffer:writes'; id: number };
type SiblingWritesMessage = { type: 'coffer:sibling-writes'; id: number };
type SiblingAckMessage = { type: 'coffer:sibling-writes-ack'; id: number };
type WritesSharedMessage = { type: 'coffer:writes-shared'; id: number };

function isOf<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary: relays each worker's writes to its siblings and answers once they have them. */
export class WriteRelay {
  readonly #siblingsOf: (worker: Worker) => Worker[];
  readonly #pending = new Map<number, { waiting: Set<Worker>; done: () => void }>();
  #nextId = 0;

  /** `siblingsOf`: the other workers serving now (a starting one has nothing cached yet). */
  constructor(siblingsOf: (worker: Worker) => Worker[]) {
    this.#siblingsOf = siblingsOf;
  }

  attach(worker: Worker): void {
    worker.on('message', (message: unknown) => {
      if (isOf<SiblingAckMessage>(message, 'coffer:sibling-writes-ack'))
        this.#acknowledged(message.id, worker);
      else if (isOf<WritesMessage>(message, 'coffer:writes')) this.#relay(worker, message.id);
    });
    // A worker that exits acknowledges nothing more: it holds nothing either.
    worker.once('exit', () => {
      for (const id of [...this.#pending.keys()]) this.#acknowledged(id, worker);
    });
  }

  #relay(origin: Worker, originId: number): void {
    const id = this.#nextId++;
    const siblings = this.#siblingsOf(origin).filter((worker) => worker.isConnected());
    const answer = () => {
      clearTimeout(timer);
      this.#pending.delete(id);
      const shared: WritesSharedMessage = { type: 'coffer:writes-shared', id: originId };
      if (origin.isConnected()) origin.send(shared);
    };
    const timer = setTimeout(answer, primaryAckTimeoutMs);
    this.#pending.set(id, { waiting: new Set(siblings), done: answer });
    const message: SiblingWritesMessage = { type: 'coffer:sibling-writes', id };
    for (const sibling of siblings) sibling.send(message);
    if (siblings.length === 0) answer();
  }

  #acknowledged(id: number, worker: Worker): void {
    const pending = this.#pending.get(id);
    if (pending === undefined || !pending.waiting.delete(worker)) return;
    if (pending.waiting.size === 0) pending.done();
  }
}

/** What a worker's write watch offers the relay (persistence/write-watch.ts). */
export type SharedWrites = { siblingWrote(): void; relayTo(relay: () => Promise<void>): void };

/** In a worker with siblings: takes their writes, and tells them its own (see WriteRelay). */
export function shareWritesWithSiblings(writes: SharedWrites): void {
  const waiting = new Map<number, () => void>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (isOf<SiblingWritesMessage>(message, 'coffer:sibling-writes')) {
      writes.siblingWrote();
      const ack: SiblingAckMessage = { type: 'coffer:sibling-writes-ack', id: message.id };
      process.send?.(ack);
    } else if (isOf<WritesSharedMessage>(message, 'coffer:writes-shared')) waiting.get(message.id)?.();
  });
  writes.relayTo(
    () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        // A primary that does not answer: the same reasoning as its own timeout (above).
        const timer = setTimeout(done, workerAckTimeoutMs);
        waiting.set(id, done);
        const message: WritesMessage = { type: 'coffer:writes', id };
        // A failed send (the primary is gone) waits the timeout all the same: no sibling heard.
        process.send?.(message, undefined, undefined, () => {});
      }),
  );
}
