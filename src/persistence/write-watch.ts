import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';

/**
 * What this process knows of writes to its database (issue 44 item 1): a generation that moves
 * whenever a write committed here, or a sibling worker said one committed there, and how many
 * statements ran (tests count them per request, issue 44 item 6). Caches that trust what they
 * read for a short while (repositories/files/file-view-cache.ts) trust it only under the
 * generation it was read under, so a change made by this process or its workers is seen at once.
 * Every write counts, whatever table it touched: a coarse signal, but no writer can forget it.
 */
export class WriteWatch {
  /** Moves on every write committed by this process or reported by a sibling worker. */
  generation = 0;
  /** Writes this process committed (not those its siblings reported). */
  localWrites = 0;
  /** Statements run through the database handle (begin and commit included). */
  statements = 0;
  /** Set in a worker of `serve --workers N`: tells the siblings, resolves once each has it (or timed out). */
  #relay: (() => Promise<void>) | undefined;
  #last: { covers: number; done: Promise<void>; settled: boolean } | undefined;
  #next: Promise<void> | undefined;
  readonly #siblingListeners: Array<() => void> = [];

  /** A write committed here. */
  wrote(): void {
    this.generation += 1;
    this.localWrites += 1;
    // Background writes (sweeps, purges) reach the siblings too, unawaited.
    this.shared();
  }

  /** A sibling worker committed a write: nothing kept before it is trusted. */
  siblingWrote(): void {
    this.generation += 1;
    for (const listener of this.#siblingListeners) listener();
  }

  /** Also told of each sibling's writes (the access epoch re-reads: a disabled user, at once). */
  onSiblingWrite(listener: () => void): void {
    this.#siblingListeners.push(listener);
  }

  relayTo(relay: () => Promise<void>): void {
    this.#relay = relay;
  }

  /**
   * Resolves once every sibling worker has dropped what it trusted before this process's writes
   * so far; undefined without siblings. Relays are coalesced: one in flight, at most one queued.
   */
  shared(): Promise<void> | undefined {
    const relay = this.#relay;
    if (relay === undefined) return undefined;
    if (this.#last !== undefined && this.#last.covers === this.localWrites) return this.#last.done;
    if (this.#next !== undefined) return this.#next;
    const start = (): Promise<void> => {
      const last = { covers: this.localWrites, done: Promise.resolve(), settled: false };
      last.done = relay().finally(() => {
        last.settled = true;
      });
      this.#last = last;
      return last.done;
    };
    if (this.#last === undefined || this.#last.settled) return start();
    this.#next = this.#last.done.then(() => {
      this.#next = undefined;
      return start();
    });
    return this.#next;
  }
}

const watches = new WeakMap<Kysely<DatabaseSchema>, WriteWatch>();

/** Records the watch of a database handle opened by openDatabase. */
export function registerWriteWatch(db: Kysely<DatabaseSchema>, watch: WriteWatch): void {
  watches.set(db, watch);
}

/** The watch of a handle openDatabase opened; undefined for any other handle (trust nothing then). */
export function writeWatchOf(db: Kysely<DatabaseSchema>): WriteWatch | undefined {
  return watches.get(db);
}
