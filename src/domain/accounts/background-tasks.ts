/**
 * Work a request leaves behind once it has answered (an account mail is looked up and queued
 * after the 202, so the answer takes as long for an unknown address as for a known one). Each
 * task's failure is reported, never thrown: it costs that mail, not the process. Closing waits
 * for the tasks under way, so nothing writes to a closed database.
 */
export class BackgroundTasks {
  readonly #running = new Set<Promise<void>>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  run(task: () => Promise<void>): void {
    const running = task()
      .catch((error: unknown) => this.#onError(error))
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  async close(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
