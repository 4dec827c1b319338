import type { FileRepository } from '../files/file-repository.ts';
import type { StoredEvent } from './event.ts';
import type { EventLog } from './event-log.ts';
import { type FilesNow, findFilesNow, isEventReadable, type StreamBatch } from './event-stream-access.ts';
import type { Authorize, EventStreamSink, StreamEndReason } from './event-stream-sink.ts';

/** What a subscription needs of the hub: the stores, the limits, and its project's live reading. */
export type SubscriptionContext = {
  projectId: string;
  log: EventLog;
  files: Pick<FileRepository, 'findById'>;
  batchLimit: number;
  /** The pause before reading again when what is missed is not readable yet. */
  pollIntervalMs: number;
  maxQueuedEvents: number;
  maxBlockedMs: number;
  /** The seq the project's live reading is past: caught up to it, the subscription takes live batches. */
  livePosition(): number;
  /** Told once, when the subscription ends for any reason. */
  onEnd(subscription: EventStreamSubscription): void;
  onError(error: unknown): void;
};

/**
 * One consumer of a project's stream. It first reads what it missed itself (after its
 * Last-Event-ID), a bounded batch at a time and only as fast as its consumer takes them, then
 * takes the batches the project's one live reading hands out. Either way each event is checked
 * against the reader's access when it is sent, and in seq order.
 */
export class EventStreamSubscription {
  /** The Last-Event-ID named an event the log no longer holds (or never did): news only. */
  readonly historyLost: boolean;
  readonly #context: SubscriptionContext;
  readonly #authorize: Authorize;
  /** The last seq handed on or passed over: nothing at or before it is sent again. */
  #position: number;
  #sink: EventStreamSink | undefined;
  #live = false;
  readonly #pending: StreamBatch[] = [];
  #pendingEvents = 0;
  #running = false;
  #blocked = false;
  #checking = false;
  #ended = false;
  #endReason: StreamEndReason | undefined;
  /** The token's expiry: the stream ends then, whatever it is doing. */
  readonly #expiresAt: Date | undefined;

  constructor(
    context: SubscriptionContext,
    start: { afterSeq: number; historyLost: boolean; expiresAt?: Date },
    authorize: Authorize,
  ) {
    this.#context = context;
    this.#position = start.afterSeq;
    this.historyLost = start.historyLost;
    this.#authorize = authorize;
    this.#expiresAt = start.expiresAt;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Starts sending to `sink` (the response's headers are out). */
  start(sink: EventStreamSink): void {
    this.#sink = sink;
    // Ended before it started (its token expired meanwhile): the response ends at once.
    if (this.#endReason) {
      sink.end(this.#endReason);
      return;
    }
    if (this.historyLost) sink.comment('history unavailable: the Last-Event-ID is unknown or expired');
    this.#kick();
  }

  /** A live batch of the project's log; ignored until the subscription has caught up to the live reading. */
  offer(batch: StreamBatch): void {
    if (this.#ended || !this.#live) return;
    this.#pending.push(batch);
    this.#pendingEvents += batch.events.length;
    // A consumer that cannot keep up is let go rather than buffered for without bound: it
    // reconnects with its Last-Event-ID and catches up at its own pace (catch-up reads wait for it).
    if (this.#pendingEvents > this.#context.maxQueuedEvents) this.end('slow');
    else this.#kick();
  }

  /** Keeps proxies from closing an idle stream. */
  heartbeat(): void {
    if (this.#ended || !this.#sink) return;
    if (!this.#blocked) this.#sink.comment('heartbeat');
  }

  /**
   * Ends the stream once its reader may no longer read: at the token's expiry, or when the
   * token is refused (a logout or password change ended its session, the account was disabled
   * or deleted). The hub asks every few hundred milliseconds; one check at a time.
   */
  checkReader(now: Date): void {
    if (this.#ended || this.#checking) return;
    if (this.#expiresAt && now >= this.#expiresAt) {
      this.end('unauthorized');
      return;
    }
    this.#checking = true;
    this.#authorize()
      .then(
        (principal) => {
          if (!principal) this.end('unauthorized');
        },
        (error: unknown) => {
          this.#context.onError(error);
          this.end('failed');
        },
      )
      .finally(() => {
        this.#checking = false;
      });
  }

  end(reason: StreamEndReason): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#endReason = reason;
    this.#pending.length = 0;
    this.#context.onEnd(this);
    this.#sink?.end(reason);
  }

  #kick(): void {
    if (this.#running || this.#ended || !this.#sink) return;
    this.#running = true;
    this.#run().catch((error: unknown) => {
      this.#context.onError(error);
      this.end('failed');
    });
  }

  async #run(): Promise<void> {
    try {
      while (!this.#ended) {
        if (!this.#live) {
          await this.#catchUp();
          continue;
        }
        const batch = this.#pending.shift();
        if (!batch) return;
        this.#pendingEvents -= batch.events.length;
        await this.#deliver(batch.events, batch.filesNow);
      }
    } finally {
      // Cleared before the promise settles: an offer() right after sees a stopped pump and starts it.
      this.#running = false;
    }
  }

  async #catchUp(): Promise<void> {
    const { log, projectId, batchLimit } = this.#context;
    // The live reading hands out batches past its position as one synchronous step, and this
    // check is synchronous too: from here on every batch past #position reaches this subscription.
    if (this.#position >= this.#context.livePosition()) {
      this.#live = true;
      return;
    }
    const events = await log.readAfter(projectId, this.#position, batchLimit);
    // The live position is an event that committed, but on PostgreSQL readAfter shows it only
    // once every transaction older than it has ended: read again shortly, never skip ahead.
    if (events.length === 0) await pause(this.#context.pollIntervalMs);
    else await this.#deliver(events, await findFilesNow(this.#context.files, events));
  }

  async #deliver(events: readonly StoredEvent[], filesNow: FilesNow): Promise<void> {
    const fresh = events.filter((event) => event.seq > this.#position);
    const last = fresh.at(-1);
    if (!last || !this.#sink) return;
    if (fresh.some((event) => event.fileId !== null)) {
      const principal = await this.#authorize();
      if (!principal) {
        this.end('unauthorized');
        return;
      }
      for (const event of fresh) {
        if (this.#ended) return;
        if (!isEventReadable(principal, event, filesNow)) continue;
        if (!this.#sink.send(event) && !(await this.#waitForRoom(this.#sink))) {
          this.end('slow');
          return;
        }
      }
    }
    this.#position = Math.max(this.#position, last.seq);
  }

  async #waitForRoom(sink: EventStreamSink): Promise<boolean> {
    this.#blocked = true;
    try {
      return await sink.drained(this.#context.maxBlockedMs);
    } finally {
      this.#blocked = false;
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
