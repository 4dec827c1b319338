import type { FileHandle } from 'node:fs/promises';

/** How many bytes arrive between two background flushes. */
const flushEveryBytes = 1024 * 1024;

/**
 * fdatasync calls started while an append's bytes still arrive, one at a time, so the one the
 * answer waits for (finish) finds little left to write: a chunk's flush overlaps its transfer
 * instead of following it. A background flush that fails fails the append (security of the
 * promise: Linux reports a write-back error to one fsync only, so it must not be dropped).
 */
export class FlushBehind {
  readonly #handle: FileHandle;
  #sinceFlush = 0;
  #inFlight: Promise<void> | undefined;
  #failure: unknown;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Told of bytes on their way to the file. */
  arrived(bytes: number): void {
    this.#sinceFlush += bytes;
    if (this.#sinceFlush < flushEveryBytes || this.#inFlight) return;
    this.#sinceFlush = 0;
    this.#inFlight = this.#handle
      .datasync()
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => {
        this.#inFlight = undefined;
      });
  }

  /** Every byte written so far is durable (data and size: what reading it back needs). */
  async finish(): Promise<void> {
    await this.#inFlight;
    if (this.#failure !== undefined) throw this.#failure;
    await this.#handle.datasync();
  }

  /** Waits for a background flush still running (before the handle closes). */
  async settle(): Promise<void> {
    await this.#inFlight;
  }
}
