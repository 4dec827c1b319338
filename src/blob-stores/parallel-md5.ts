import { Worker } from 'node:worker_threads';
import type { Md5Answer, Md5Request } from './md5-worker.ts';

/** Bytes copied into one message: large enough that messaging costs nothing next to hashing. */
const BATCH_BYTES = 1024 * 1024;
/** Bytes sent but not yet hashed, per upload, before the upload waits (bounds the memory). */
const MAX_IN_FLIGHT_BYTES = 8 * BATCH_BYTES;

type Listener = { onHashed(bytes: number): void; onDigest(hex: string): void; onError(error: Error): void };

/**
 * One worker thread per process hashes every upload's bytes, in parallel with the main thread
 * receiving and writing them: MD5 on the main thread was a third of a large upload's CPU and
 * ran in series with the rest. Started at the first upload; idle, it keeps no process alive.
 */
class Md5Thread {
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #listeners = new Map<number, Listener>();

  open(listener: Listener): number {
    const id = this.#nextId++;
    this.#listeners.set(id, listener);
    this.#worker?.ref();
    return id;
  }

  send(request: Md5Request, transfer?: ArrayBuffer): void {
    this.#start().postMessage(request, transfer ? [transfer] : []);
  }

  close(id: number): void {
    this.#listeners.delete(id);
    // Idle, the thread does not keep the process alive; a hash in progress does.
    if (this.#listeners.size === 0) this.#worker?.unref();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./md5-worker.ts', import.meta.url));
    worker.on('message', (answer: Md5Answer) => {
      const listener = this.#listeners.get(answer.id);
      if (!listener) return;
      if ('hashed' in answer) listener.onHashed(answer.hashed);
      else listener.onDigest(answer.digest);
    });
    // A dead thread fails the uploads it was hashing (they answer an error and keep nothing);
    // the next upload starts a new one.
    const fail = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const listeners = [...this.#listeners.values()];
      this.#listeners.clear();
      for (const listener of listeners) listener.onError(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the MD5 thread exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}

const thread = new Md5Thread();

/**
 * The MD5 of one stream of bytes, computed on the MD5 thread. update() copies the bytes (the
 * caller still writes them) into 1 MiB batches whose memory is transferred, not copied again;
 * wait for drained() when it answers false, so a lagging thread slows the upload down instead
 * of queueing its bytes in memory.
 */
export class ParallelMd5 {
  /** Registered with the thread at the first bytes or the digest, so an unused hash holds nothing. */
  #id: number | undefined;
  #batch: Buffer | undefined;
  #batchLength = 0;
  #inFlight = 0;
  #failure: Error | undefined;
  #finished = false;
  #waiting: Array<{ resolve(): void; reject(error: Error): void }> = [];
  #digest: { resolve(hex: string): void; reject(error: Error): void } | undefined;

  #register(): number {
    this.#id ??= thread.open({
      onHashed: (bytes) => {
        this.#inFlight -= bytes;
        if (this.#inFlight <= MAX_IN_FLIGHT_BYTES / 2) this.#wake();
      },
      onDigest: (hex) => {
        if (this.#id !== undefined) thread.close(this.#id);
        this.#digest?.resolve(hex);
      },
      onError: (error) => {
        this.#failure = error;
        this.#wake();
        this.#digest?.reject(error);
      },
    });
    return this.#id;
  }

  /** Adds bytes; false when the caller should wait for drained() before adding more. */
  update(bytes: Uint8Array): boolean {
    if (this.#failure) throw this.#failure;
    for (let offset = 0; offset < bytes.length; ) {
      this.#batch ??= Buffer.allocUnsafeSlow(BATCH_BYTES);
      const copied = Buffer.from(bytes.buffer, bytes.byteOffset + offset, bytes.length - offset).copy(
        this.#batch,
        this.#batchLength,
      );
      this.#batchLength += copied;
      offset += copied;
      if (this.#batchLength === BATCH_BYTES) this.#flush();
    }
    return this.#inFlight <= MAX_IN_FLIGHT_BYTES;
  }

  /** Resolves once the thread has caught up enough to take more. */
  drained(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#inFlight <= MAX_IN_FLIGHT_BYTES) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** The hex digest of everything added (call once, after the last update). */
  digest(): Promise<string> {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#finished = true;
    this.#flush();
    const digest = new Promise<string>((resolve, reject) => {
      this.#digest = { resolve, reject };
    });
    thread.send({ id: this.#register(), end: true });
    return digest;
  }

  /** Forgets the bytes (a failed or aborted upload). */
  drop(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#id === undefined) return;
    thread.close(this.#id);
    if (!this.#failure) thread.send({ id: this.#id, drop: true });
  }

  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined || this.#batchLength === 0) return;
    // allocUnsafeSlow: the batch owns its whole ArrayBuffer, so transferring it moves nothing else.
    const memory = batch.buffer as ArrayBuffer;
    const length = this.#batchLength;
    this.#batch = undefined;
    this.#batchLength = 0;
    this.#inFlight += length;
    const bytes = length === memory.byteLength ? memory : memory.slice(0, length);
    thread.send({ id: this.#register(), bytes }, bytes);
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const waiter of waiting) {
      if (this.#failure) waiter.reject(this.#failure);
      else waiter.resolve();
    }
  }
}
