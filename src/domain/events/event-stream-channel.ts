import type { FileRepository } from '../files/file-repository.ts';
import type { EventLog } from './event-log.ts';
import { findFilesNow } from './event-stream-access.ts';
import type { EventStreamSubscription } from './event-stream-subscription.ts';

export type ChannelSettings = {
  log: EventLog;
  files: Pick<FileRepository, 'findById'>;
  pollIntervalMs: number;
  batchLimit: number;
  /** The pause after a failed read (the database is down: no need to ask four times a second). */
  failurePauseMs: number;
  onError(error: unknown): void;
  /** Told when the last subscription left and the channel stopped. */
  onEmpty(channel: EventStreamChannel): void;
};

/**
 * A project's live reading: one EventLog.readAfter per interval for all of the project's
 * subscriptions (never one per connection), and one file lookup per distinct file of each
 * batch, handed to every subscription at once. It runs while the project has subscriptions.
 */
export class EventStreamChannel {
  readonly projectId: string;
  readonly #settings: ChannelSettings;
  readonly #subscriptions = new Set<EventStreamSubscription>();
  #position: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(projectId: string, afterSeq: number, settings: ChannelSettings) {
    this.projectId = projectId;
    this.#position = afterSeq;
    this.#settings = settings;
    this.#schedule(settings.pollIntervalMs);
  }

  /** The last seq read: every later batch goes to every subscription then present. */
  get position(): number {
    return this.#position;
  }

  get subscriptions(): ReadonlySet<EventStreamSubscription> {
    return this.#subscriptions;
  }

  add(subscription: EventStreamSubscription): void {
    this.#subscriptions.add(subscription);
  }

  remove(subscription: EventStreamSubscription): void {
    this.#subscriptions.delete(subscription);
    if (this.#subscriptions.size === 0) this.stop();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#settings.onEmpty(this);
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => void this.#poll(), delayMs);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    const { log, files, batchLimit, pollIntervalMs } = this.#settings;
    let pauseMs = pollIntervalMs;
    try {
      const events = await log.readAfter(this.projectId, this.#position, batchLimit);
      const filesNow = await findFilesNow(files, events);
      const last = events.at(-1);
      if (last && !this.#stopped) {
        // The position moves and the batch goes out in one synchronous step (see catchUp).
        this.#position = last.seq;
        const batch = { events, filesNow };
        for (const subscription of this.#subscriptions) subscription.offer(batch);
        // A full batch: more is waiting, read on at once.
        if (events.length === batchLimit) pauseMs = 0;
      }
    } catch (error) {
      this.#settings.onError(error);
      pauseMs = this.#settings.failurePauseMs;
    }
    if (!this.#stopped) this.#schedule(pauseMs);
  }
}
