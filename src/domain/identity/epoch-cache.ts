import type { AccessEpochWatch } from './access-epoch-watch.ts';

/**
 * Values read from the database, trusted while the access epoch's generation is the one they
 * were read under (access-epoch-watch.ts): a change committed anywhere is seen within the
 * epoch's check interval. Misses are not remembered, so creating a row needs no invalidation.
 * Bounded: keys come from clients (through valid credentials only, but memory stays flat).
 */
export class EpochCache<Value> {
  readonly #watch: AccessEpochWatch;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { value: Value; generation: number }>();

  constructor(watch: AccessEpochWatch, maxEntries = 10_000) {
    this.#watch = watch;
    this.#maxEntries = maxEntries;
  }

  async get(key: string, load: () => Promise<Value | undefined>): Promise<Value | undefined> {
    const current = this.#watch.current();
    const generation = typeof current === 'number' ? current : await current;
    const cached = this.#entries.get(key);
    if (cached?.generation === generation) return cached.value;
    const value = await load();
    // An entry counts only under the generation current before its read, so a read that a
    // change overtook is never served; it is not even stored (a fresher entry may be there).
    if (value === undefined || this.#watch.generation !== generation) return value;
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, generation });
    return value;
  }
}
