import { renderBusy } from '../../errors/errors.ts';

export type RenderQueueOptions = {
  /** Renders running at once. */
  concurrency: number;
  /** Renders that may wait for a slot; past it, RENDER_BUSY at once. */
  queueLength: number;
  /** How long one may wait for a slot before it gives up with RENDER_BUSY. */
  maxWaitMs: number;
};

type Waiter = { start: () => void; timer: NodeJS.Timeout };

/**
 * Bounds rendering work in one process: at most `concurrency` renders at once, a bounded queue
 * behind them, and one render per key however many ask for it at once (single flight: 50
 * requests for one new thumbnail render it once and share the answer). security: a storm of
 * thumbnails (or of image bombs) can take the render slots, never the process's memory.
 */
export class RenderQueue {
  readonly #o: RenderQueueOptions;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #waiting: Waiter[] = [];
  #running = 0;

  constructor(options: RenderQueueOptions) {
    this.#o = options;
  }

  /** Renders running and waiting (for metrics and tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /**
   * Runs `task` in a slot, or joins the run of the same key already queued or running. `after`
   * (storing what the task made) runs once the slot is free again, still as part of the shared
   * run: a slot is held only for the work that needs a core and the source's memory.
   */
  run<T, U = T>(key: string, task: () => Promise<T>, after?: (made: T) => Promise<U>): Promise<U> {
    const joined = this.#inFlight.get(key);
    if (joined) return joined as Promise<U>;
    const run = this.#acquire().then(async () => {
      try {
        return await task();
      } finally {
        this.#release();
      }
    });
    const finished = after ? run.then(after) : (run as Promise<unknown> as Promise<U>);
    const shared = finished.finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, shared);
    return shared;
  }

  #acquire(): Promise<void> {
    if (this.#running < this.#o.concurrency) {
      this.#running += 1;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.#o.queueLength) return Promise.reject(renderBusy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
          reject(renderBusy('No render slot came free in time'));
        }, this.#o.maxWaitMs),
      };
      this.#waiting.push(waiter);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    // The slot passes straight to the next waiter: #running stays as it is.
    if (next) next.start();
    else this.#running -= 1;
  }
}
