import { rateLimited } from '../../errors/errors.ts';
import { toCountedAddress } from '../rate-limits/counted-address.ts';

/** Who opens a stream: counted per user (of a project) and per client address. */
export type StreamReader = { projectId: string; userId: string; clientAddress: string };

export type StreamSlotLimits = { perUser: number; perAddress: number };

/**
 * What a refused stream is told to wait: a slot frees only when another of the caller's
 * streams ends, which no clock predicts; long enough that a retrying client does not spin.
 */
const retryAfterSeconds = 5;

/**
 * The open streams of this process per user and per client address (issue 35, item 8): each
 * stream holds a slot from its subscription to its end; past a limit, 429 RATE_LIMITED. Counted
 * in memory: a stream is a connection of this process, and ends with it (docs/decisions.md).
 */
export class EventStreamSlots {
  readonly #limits: StreamSlotLimits;
  readonly #byUser = new Map<string, number>();
  readonly #byAddress = new Map<string, number>();

  constructor(limits: StreamSlotLimits) {
    this.#limits = limits;
  }

  /** Takes a slot for the reader, or throws RATE_LIMITED; answers its release (idempotent). */
  take(reader: StreamReader): () => void {
    const user = `${reader.projectId}\0${reader.userId}`;
    const address = toCountedAddress(reader.clientAddress);
    if ((this.#byUser.get(user) ?? 0) >= this.#limits.perUser) throw rateLimited(retryAfterSeconds);
    if ((this.#byAddress.get(address) ?? 0) >= this.#limits.perAddress) throw rateLimited(retryAfterSeconds);
    adjust(this.#byUser, user, 1);
    adjust(this.#byAddress, address, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      adjust(this.#byUser, user, -1);
      adjust(this.#byAddress, address, -1);
    };
  }
}

/** Counts that reach 0 leave the map: it holds only readers with open streams. */
function adjust(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
