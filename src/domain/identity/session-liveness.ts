import type { AccessEpochWatch } from './access-epoch-watch.ts';

/** Marks a family that is gone: it never comes back (ids are never reused). */
const ended = 0;

/**
 * Which sessions (refresh-token families) are live, for barrier 3: an access token works only
 * while the family named by its `sid` exists and has not expired. Every process remembers the
 * expiry of the families it has seen, trusted while the session epoch's generation is the one
 * it was read under: a revocation committed anywhere bumps the epoch (a database trigger), so
 * every process and node refuses the session's access tokens within the epoch's interval, and
 * the revoking process at once (`forget`). A known live session costs one Map lookup.
 */
export class SessionLiveness {
  readonly #watch: AccessEpochWatch;
  readonly #findExpiresAt: (familyId: string) => Promise<number | undefined>;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { expiresAtMs: number; generation: number }>();

  constructor(options: {
    watch: AccessEpochWatch;
    /** The family's expiry (Unix ms), undefined once it is gone. */
    findExpiresAt: (familyId: string) => Promise<number | undefined>;
    maxEntries?: number;
  }) {
    this.#watch = options.watch;
    this.#findExpiresAt = options.findExpiresAt;
    // Bounded: a session id comes from a validly signed token only, but memory stays flat.
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  /** Whether the session is live at `nowMs`; a boolean without waiting when it is known. */
  isLive(familyId: string, nowMs: number): boolean | Promise<boolean> {
    const current = this.#watch.current();
    return typeof current === 'number'
      ? this.#check(familyId, nowMs, current)
      : current.then((generation) => this.#check(familyId, nowMs, generation));
  }

  /** This process ended sessions: trust nothing remembered before, at once. */
  forget(): void {
    this.#watch.invalidate();
  }

  #check(familyId: string, nowMs: number, generation: number): boolean | Promise<boolean> {
    const known = this.#entries.get(familyId);
    if (known?.expiresAtMs === ended) return false;
    // Past the remembered expiry, a rotation may have extended the family since: read again.
    if (known?.generation === generation && known.expiresAtMs > nowMs) return true;
    return this.#load(familyId, nowMs, generation);
  }

  async #load(familyId: string, nowMs: number, generation: number): Promise<boolean> {
    const expiresAtMs = (await this.#findExpiresAt(familyId)) ?? ended;
    // Remembered only under the generation current before the read: a read that a revocation
    // overtook is never trusted (epoch-cache.ts reasons the same way). An ended family is final.
    if (this.#watch.generation === generation || expiresAtMs === ended) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      this.#entries.set(familyId, { expiresAtMs, generation });
    }
    return expiresAtMs > nowMs;
  }
}
