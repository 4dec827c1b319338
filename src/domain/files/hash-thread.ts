import { Worker } from 'node:worker_threads';

/** Bytes copied into one message: few messages, and one copy of each byte. */
const batchBytes = 1024 * 1024;
/** Bytes sent but not yet hashed before a digest stops taking more (backpressure). */
const maxInFlightBytes = 8 * batchBytes;
/**
 * Hashed batches the thread sent back, kept for the next ones. Without reuse every MiB was a
 * new buffer freed only when the thread's garbage collector got round to it, which it rarely
 * does (it allocates almost nothing of its own): a 1 GiB upload grew the process by ~80 MiB.
 */
const maxFreeBatches = 16;

type Pending = {
  inFlight: number;
  onDrained: (() => void) | undefined;
  onDigest: ((digest: Uint8Array) => void) | undefined;
  /** Saved states asked for, answered in the order asked (the thread answers in turn). */
  onStates: Array<(state: Uint8Array) => void>;
  onError: (error: Error) => void;
};

/**
 * Digests of upload streams on a worker thread of its own (one per process, started at first
 * use and unreferenced), so that hashing costs the request thread only a copy of each byte:
 * on the request thread, MD5 alone was a fifth of a large upload's busy time and SHA-256
 * cut upload throughput by a quarter or more (docs/benchmarks.md).
 */
export class HashThread {
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #freeBatches: ArrayBuffer[] = [];

  /** A new SHA-256 (an upload's checksum, the local stores' ETag) fed through update() and finished by digest(). */
  open(): HashDigest {
    return new HashDigest(this, this.#nextId++);
  }

  /**
   * A SHA-256 whose state can be saved (save()) and gone on from later, in any process:
   * a resumable upload's (issue 35). Slower than open()'s (hash-wasm, not OpenSSL: ~190 vs
   * ~1,100 MiB/s here), so only resumable uploads use it. `state` is one save() answered.
   */
  openResumable(state?: Uint8Array): HashDigest {
    const digest = new HashDigest(this, this.#nextId++);
    digest.startResumable(state);
    return digest;
  }

  /** @internal */ takeBatch(): Buffer {
    const free = this.#freeBatches.pop();
    return free ? Buffer.from(free) : Buffer.allocUnsafeSlow(batchBytes);
  }

  /** @internal */ giveBack(batch: ArrayBuffer): void {
    if (batch.byteLength === batchBytes && this.#freeBatches.length < maxFreeBatches)
      this.#freeBatches.push(batch);
  }

  /** @internal */ post(id: number, message: object, transfer?: ArrayBuffer[]): void {
    this.#start().postMessage({ id, ...message }, transfer);
  }

  /** @internal */ track(id: number, entry: Pending): void {
    this.#pending.set(id, entry);
    // Referenced only while a digest is under way: it never keeps an idle process alive.
    if (this.#pending.size === 1) this.#start().ref();
  }

  /** @internal */ forget(id: number): void {
    if (this.#pending.delete(id) && this.#pending.size === 0) this.#worker?.unref();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./hash-thread-worker.ts', import.meta.url));
    worker.on(
      'message',
      (message: {
        id: number;
        ack?: number;
        bytes?: ArrayBuffer;
        digest?: Uint8Array;
        state?: Uint8Array;
        failed?: string;
      }) => {
        if (message.bytes) this.giveBack(message.bytes);
        const entry = this.#pending.get(message.id);
        if (!entry) return;
        if (message.ack !== undefined) {
          entry.inFlight -= message.ack;
          if (entry.inFlight <= maxInFlightBytes / 2) entry.onDrained?.();
        }
        if (message.state !== undefined) entry.onStates.shift()?.(message.state);
        if (message.digest !== undefined) entry.onDigest?.(message.digest);
        if (message.failed !== undefined) {
          this.forget(message.id);
          entry.onError(new Error(`the hashing thread: ${message.failed}`));
        }
      },
    );
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined; // the next digest starts a new thread
      for (const entry of this.#pending.values()) entry.onError(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the hashing thread exited (code ${code})`)));
    // After the listeners (a 'message' listener refs the thread again); track() refs it.
    worker.unref();
    this.#worker = worker;
    return worker;
  }
}

/** One stream's digest: update() may wait while the thread is behind, digest() answers the bytes. */
export class HashDigest {
  readonly #thread: HashThread;
  readonly #id: number;
  readonly #entry: Pending;
  /** Allocated on demand: a digest left open between requests (a resumable upload) holds none. */
  #batch: Buffer | undefined;
  #filled = 0;
  #error: Error | undefined;

  constructor(thread: HashThread, id: number) {
    this.#thread = thread;
    this.#id = id;
    this.#entry = {
      inFlight: 0,
      onDrained: undefined,
      onDigest: undefined,
      onStates: [],
      onError: (error) => {
        this.#error = error;
        this.#entry.onDrained?.();
        for (const onState of this.#entry.onStates.splice(0)) onState(new Uint8Array(0));
      },
    };
    thread.track(id, this.#entry);
  }

  /** Copies the bytes into the current batch; resolves at once unless the thread is behind. */
  async update(bytes: Buffer): Promise<void> {
    for (let offset = 0; offset < bytes.length; ) {
      this.#batch ??= this.#thread.takeBatch();
      const copied = bytes.copy(this.#batch, this.#filled, offset);
      this.#filled += copied;
      offset += copied;
      if (this.#filled === batchBytes) this.#send();
    }
    if (this.#entry.inFlight > maxInFlightBytes) {
      await new Promise<void>((resolve) => {
        this.#entry.onDrained = resolve;
      });
      this.#entry.onDrained = undefined;
    }
    if (this.#error) throw this.#error;
  }

  /** @internal */ startResumable(state?: Uint8Array): void {
    this.#thread.post(this.#id, { resumable: true, ...(state && { state }) });
  }

  /**
   * The state after every byte given so far (a digest openResumable() opened), to go on from
   * with openResumable(state). Does not wait for earlier saves: the thread answers in turn.
   */
  save(): Promise<Uint8Array> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#filled > 0) this.#send();
    return new Promise((resolve, reject) => {
      this.#entry.onStates.push((state) => {
        if (this.#error) reject(this.#error);
        else resolve(state);
      });
      this.#thread.post(this.#id, { save: true });
    });
  }

  /** The digest of every byte given. */
  digest(): Promise<Buffer> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#filled > 0) this.#send();
    return new Promise((resolve, reject) => {
      this.#entry.onDigest = (digest) => {
        this.#thread.forget(this.#id);
        resolve(Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength));
      };
      this.#entry.onError = reject;
      this.#thread.post(this.#id, { end: true });
    });
  }

  /** Sends what the current batch holds and lets its memory go (a digest that waits for more). */
  flush(): void {
    if (this.#filled > 0) this.#send();
    if (this.#batch) this.#thread.giveBack(this.#batch.buffer as ArrayBuffer);
    this.#batch = undefined;
  }

  /** Forgets a digest that will not be finished (a refused or broken upload). */
  discard(): void {
    this.#thread.forget(this.#id);
    this.#thread.post(this.#id, { drop: true });
  }

  #send(): void {
    const filled = this.#filled;
    const batch = this.#batch;
    if (!batch) return;
    // A full batch travels as it is (transferred, not copied); the last, partial one as a copy.
    const bytes = (filled === batchBytes ? batch.buffer : batch.buffer.slice(0, filled)) as ArrayBuffer;
    if (filled === batchBytes) this.#batch = undefined;
    this.#filled = 0;
    this.#entry.inFlight += filled;
    this.#thread.post(this.#id, { bytes }, [bytes]);
  }
}
