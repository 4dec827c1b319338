import type { AccessEpochRepository } from './access-epoch-repository.ts';

/**
 * How long a reading of the access epoch is trusted. A disabled account, a removed user or a
 * changed project is refused by every process and node at most this long after it commits
 * (plus one database round trip); the issue allows one second.
 */
export const accessEpochCheckIntervalMs = 250;

/**
 * Tells caches of projects and users when to stop trusting what they hold. Answers a
 * generation that changes whenever the database's access epoch changed since the last reading
 * or this process changed a user itself; the epoch is re-read at most every `intervalMs`, on
 * demand (an idle process reads nothing). A failed reading fails the request that needed it:
 * nothing cached is trusted past the interval.
 */
export class AccessEpochWatch {
  readonly #epochs: AccessEpochRepository;
  readonly #intervalMs: number;
  #epoch: number | undefined;
  #generation = 0;
  /** performance.now() when the last successful reading started (its snapshot is no older). */
  #readAtMs = Number.NEGATIVE_INFINITY;
  #reading: Promise<number> | undefined;
  /** recheck() calls: a reading that began before one vouches for nothing after it. */
  #rechecks = 0;

  constructor(epochs: AccessEpochRepository, intervalMs = accessEpochCheckIntervalMs) {
    this.#epochs = epochs;
    this.#intervalMs = intervalMs;
  }

  /** The current generation; a number while the last reading is fresh (no await on the hot path). */
  current(): number | Promise<number> {
    if (performance.now() - this.#readAtMs < this.#intervalMs) return this.#generation;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  /** The generation as last read, without reading (has it moved since a read began?). */
  get generation(): number {
    return this.#generation;
  }

  /** This process changed a user or project: trust nothing cached before it, at once. */
  invalidate(): void {
    this.#generation += 1;
    this.#readAtMs = Number.NEGATIVE_INFINITY;
  }

  /**
   * A sibling worker committed a write (supervisor/write-relay.ts): read the epoch again before
   * trusting anything, so a user or project it changed (the triggers moved the epoch in that
   * commit) is refused here at once. Unlike invalidate, entries stay if the epoch did not move.
   */
  recheck(): void {
    this.#readAtMs = Number.NEGATIVE_INFINITY;
    this.#rechecks += 1;
    // A reading under way may have begun before that commit: the next caller starts another.
    this.#reading = undefined;
  }

  #read(): Promise<number> {
    const reading: Promise<number> = this.#readOnce().finally(() => {
      if (this.#reading === reading) this.#reading = undefined;
    });
    return reading;
  }

  async #readOnce(): Promise<number> {
    const startedAtMs = performance.now();
    const rechecks = this.#rechecks;
    const epoch = await this.#epochs.read();
    if (epoch !== this.#epoch) {
      this.#epoch = epoch;
      this.#generation += 1;
    }
    if (rechecks === this.#rechecks) this.#readAtMs = startedAtMs;
    return this.#generation;
  }
}
