import type { FileHandle } from 'node:fs/promises';

/**
 * How many bytes are written between two background flushes: the flush boundary of issue 35
 * (a kill -9 loses at most about this much of a PATCH that was streaming).
 */
const flushEveryBytes = 1024 * 1024;

/**
 * fdatasync calls started while an append's bytes still arrive, one at a time, so the one the
 * answer waits for (finish) finds little left to write: a chunk's flush overlaps its transfer
 * instead of following it. Each flush that ends tells `onDurable` the offset it made durable
 * (every byte written before it started), so the upload's row can move mid-PATCH. A background
 * flush that fails fails the append (security of the promise: Linux reports a write-back error
 * to one fsync only, so it must not be dropped).
 */
export class FlushBehind {
  readonly #handle: FileHandle;
  readonly #onDurable: ((offset: number) => void) | undefined;
  #flushedFrom: number;
  #inFlight: Promise<void> | undefined;
  #failure: unknown;

  constructor(handle: FileHandle, options: { offset: number; onDurable?: (offset: number) => void }) {
    this.#handle = handle;
    this.#flushedFrom = options.offset;
    this.#onDurable = options.onDurable;
  }

  /** Told when the bytes up to `end` are written (not yet durable). */
  written(end: number): void {
    if (end - this.#flushedFrom < flushEveryBytes || this.#inFlight) return;
    this.#flushedFrom = end;
    this.#inFlight = this.#handle
      .datasync()
      .then(
        () => this.#onDurable?.(end),
        (error: unknown) => {
          this.#failure ??= error;
        },
      )
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
