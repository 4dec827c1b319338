import { randomBytes } from 'node:crypto';
import { uploadLocked } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { type LeaseHolders, unknownLeaseHolders } from './lease-holders.ts';
import type { Lease, ResumableUploadRepository } from './resumable-upload-repository.ts';

/** How long a lease lasts unless renewed: a writer that died frees its upload after this. */
const leaseMs = 30_000;
/** Renewed well before it lapses, so a slow database round trip does not lose it. */
const renewEveryMs = 10_000;
/** How long a request waits for a request of this process it asked to give way. */
const takeoverWaitMs = 5_000;
/** A writer that took no byte for this long is taken over; one still receiving bytes is not. */
const staleAfterMs = 5_000;

type LocalHolder = { abort: () => void; released: Promise<void>; activeAt: number };

/**
 * One writer at a time per upload, on any node (issue 20): a lease row (the repository's
 * takeLease), renewed while the bytes stream and released at the end. No transaction stays
 * open meanwhile. A client that reconnects while its old request still holds the upload (a
 * half-open connection) usually lands on the same process: once the old request has taken no
 * byte for a few seconds it is asked to stop and its lease handed over, as tus recommends; a
 * writer still receiving bytes keeps the upload (the newcomer gets 423), and on another node
 * the newcomer gets 423 until the old lease lapses or is released. A lease whose process is
 * known to be dead (LeaseHolders: a worker killed, or the whole server before its restart) is
 * taken at once (issue 35). Every 423 says in Retry-After when the upload can be taken.
 */
export class UploadLeases {
  readonly #uploads: ResumableUploadRepository;
  readonly #clock: Clock;
  readonly #holders: LeaseHolders;
  readonly #local = new Map<string, LocalHolder>();

  constructor(options: { uploads: ResumableUploadRepository; clock: Clock; holders?: LeaseHolders }) {
    this.#uploads = options.uploads;
    this.#clock = options.clock;
    this.#holders = options.holders ?? unknownLeaseHolders;
  }

  /**
   * Runs `work` while holding the upload's lease; UPLOAD_LOCKED when another holds it. `work`
   * gets the lease owner (to condition its writes on), a signal that fires when the lease is
   * lost or handed to a newer request, and `touch`, to call as bytes arrive (a live writer).
   */
  async withLease<T>(
    uploadId: string,
    work: (owner: string, signal: AbortSignal, touch: () => void) => Promise<T>,
  ): Promise<T> {
    await this.#askLocalHolderToStop(uploadId);
    const owner = randomBytes(12).toString('hex');
    const controller = new AbortController();
    await this.#takeLease(uploadId, this.#leaseFor(owner));
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holder = { abort: () => controller.abort(uploadLocked(1)), released, activeAt: Date.now() };
    this.#local.set(uploadId, holder);
    const renewing = setInterval(() => {
      this.#uploads.renewLease(uploadId, this.#leaseFor(owner)).then(
        (held) => held || controller.abort(uploadLocked(1)),
        () => {}, // a database blip: the next renewal tries again, well within the lease
      );
    }, renewEveryMs);
    renewing.unref();
    try {
      return await work(owner, controller.signal, () => {
        holder.activeAt = Date.now();
      });
    } finally {
      clearInterval(renewing);
      if (this.#local.get(uploadId)?.released === released) this.#local.delete(uploadId);
      await this.#uploads.releaseLease(uploadId, owner).catch(() => {}); // else it lapses
      release();
    }
  }

  /** Takes a free or lapsed lease, or the lease of a process that died; else UPLOAD_LOCKED. */
  async #takeLease(uploadId: string, lease: Lease): Promise<void> {
    if (await this.#uploads.takeLease(uploadId, lease, this.#clock.now())) return;
    const held = await this.#uploads.findLease(uploadId);
    if (!held) {
      // Released between the two reads: one more try, then the answer stands.
      if (await this.#uploads.takeLease(uploadId, lease, this.#clock.now())) return;
      throw uploadLocked(1);
    }
    if (held.holder && held.holder !== this.#holders.self && (await this.#holders.isGone(held.holder))) {
      if (await this.#uploads.takeOverLease(uploadId, lease, held.owner)) return;
    }
    throw uploadLocked(secondsUntil(held.until.getTime(), this.#clock.now().getTime()));
  }

  async #askLocalHolderToStop(uploadId: string): Promise<void> {
    const holder = this.#local.get(uploadId);
    if (!holder) return;
    const activeForMs = Date.now() - holder.activeAt;
    // Retry-After: when the writer, if it takes no more byte, may be asked to give way.
    if (activeForMs < staleAfterMs)
      throw uploadLocked(secondsUntil(holder.activeAt + staleAfterMs, Date.now()));
    holder.abort();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, takeoverWaitMs);
    });
    await Promise.race([holder.released, timeout]);
    clearTimeout(timer);
  }

  #leaseFor(owner: string): Lease {
    return { owner, until: new Date(this.#clock.now().getTime() + leaseMs), holder: this.#holders.self };
  }
}

/** Whole seconds from `nowMs` to `atMs`, at least one (Retry-After: delay-seconds). */
function secondsUntil(atMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((atMs - nowMs) / 1000));
}
