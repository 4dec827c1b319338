/**
 * At most `size` scans at once; the rest wait in arrival order, none is dropped
 * (COFFER_SCAN_CONCURRENCY). A waiter whose signal aborts leaves the queue.
 */
export class ScanSlots {
  readonly #size: number;
  #taken = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Resolves with the function that gives the slot back (call it once, in a finally). */
  take(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#taken < this.#size) {
      this.#taken += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        resolve(this.#releaser());
      };
      const leave = () => {
        const at = this.#waiting.indexOf(turn);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(turn);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter: #taken stays as it is.
      if (next) next();
      else this.#taken -= 1;
    };
  }
}
