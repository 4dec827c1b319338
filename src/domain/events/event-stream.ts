import { storeNotReady } from '../../errors/errors.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { isEventId } from './event-id.ts';
import type { EventLog } from './event-log.ts';
import { EventStreamChannel } from './event-stream-channel.ts';
import type { Authorize } from './event-stream-sink.ts';
import { EventStreamSlots, type StreamReader } from './event-stream-slots.ts';
import { EventStreamSubscription } from './event-stream-subscription.ts';

export type EventStreamOptions = {
  log: EventLog;
  files: Pick<FileRepository, 'findById'>;
  /** How often a project with subscriptions is read (one query for all of them); 250 ms. */
  pollIntervalMs?: number;
  /** How often each stream gets a comment line, so that proxies keep it open; 15 s. */
  heartbeatIntervalMs?: number;
  /** Events per read of the log, live or catching up; 100. */
  batchLimit?: number;
  /** Live events waiting for one slow consumer before its stream is ended; 1000. */
  maxQueuedEvents?: number;
  /** How long a consumer's full buffer may stay full before its stream is ended; 30 s. */
  maxBlockedMs?: number;
  /**
   * How often every stream's reader is checked again (its token's expiry, a logout, a disabled
   * account): 250 ms, so a stream ends within a second of either (issue 35, item 8).
   */
  livenessIntervalMs?: number;
  /** Open streams per user and per client address in this process (COFFER_EVENT_STREAMS_PER_*). */
  maxStreamsPerUser?: number;
  maxStreamsPerAddress?: number;
  clock?: Clock;
};

/**
 * The live event stream's hub (issue 22, GET /api/v1/events): subscriptions per project, one
 * live reading per project that has any, a heartbeat for all. Timers are unref'd; close()
 * ends every stream and refuses new ones.
 */
export class EventStream {
  readonly #options: Required<EventStreamOptions>;
  readonly #channels = new Map<string, EventStreamChannel>();
  readonly #slots: EventStreamSlots;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #liveness: ReturnType<typeof setInterval> | undefined;
  #reportError: (error: unknown) => void = () => {};
  #closed = false;

  constructor(options: EventStreamOptions) {
    this.#options = {
      pollIntervalMs: 250,
      heartbeatIntervalMs: 15_000,
      batchLimit: 100,
      maxQueuedEvents: 1000,
      maxBlockedMs: 30_000,
      livenessIntervalMs: 250,
      maxStreamsPerUser: 10,
      maxStreamsPerAddress: 100,
      clock: systemClock,
      ...options,
    };
    this.#slots = new EventStreamSlots({
      perUser: this.#options.maxStreamsPerUser,
      perAddress: this.#options.maxStreamsPerAddress,
    });
  }

  /** Where failures to read the log go (the server's log); nothing is thrown at a stream for them. */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.#reportError = report;
  }

  /**
   * A subscription to the project's file events, not started yet: after the Last-Event-ID's
   * event when the log still holds it (within the caller's project), else from now (news
   * only, `historyLost` when an id was named). UNAVAILABLE once the hub is closed; RATE_LIMITED
   * when the reader holds as many streams as allowed. It ends by itself at `expiresAt` (the
   * token's expiry).
   */
  async subscribe(request: {
    projectId: string;
    lastEventId?: string;
    authorize: Authorize;
    reader?: StreamReader;
    expiresAt?: Date;
  }): Promise<EventStreamSubscription> {
    this.#assertOpen();
    const release = request.reader ? this.#slots.take(request.reader) : () => {};
    try {
      return await this.#subscribe(request, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  async #subscribe(
    request: { projectId: string; lastEventId?: string; authorize: Authorize; expiresAt?: Date },
    release: () => void,
  ): Promise<EventStreamSubscription> {
    const { projectId, lastEventId } = request;
    const replayed =
      lastEventId !== undefined && isEventId(lastEventId)
        ? await this.#options.log.findById(projectId, lastEventId)
        : undefined;
    const latestSeq = await this.#options.log.findLatestSeq(projectId);
    this.#assertOpen();
    // Nothing awaits from here on: the channel found is the one joined.
    const channel = this.#channels.get(projectId) ?? this.#openChannel(projectId, latestSeq);
    const start = { afterSeq: replayed?.seq ?? latestSeq, historyLost: !replayed && !!lastEventId };
    const subscription = new EventStreamSubscription(
      { ...this.#options, projectId, ...this.#subscriptionHooks(channel, release) },
      { ...start, ...(request.expiresAt && { expiresAt: request.expiresAt }) },
      request.authorize,
    );
    channel.add(subscription);
    this.#startTimers();
    return subscription;
  }

  /** Subscriptions to the project's stream right now (a debug accessor: tests, metrics). */
  countSubscriptions(projectId: string): number {
    return this.#channels.get(projectId)?.subscriptions.size ?? 0;
  }

  /** Whether the project's log is being read (only while it has subscriptions). */
  isReading(projectId: string): boolean {
    return this.#channels.has(projectId);
  }

  close(): void {
    this.#closed = true;
    for (const channel of [...this.#channels.values()]) {
      for (const subscription of [...channel.subscriptions]) subscription.end('closed');
      channel.stop();
    }
    this.#stopTimers();
  }

  #openChannel(projectId: string, afterSeq: number): EventStreamChannel {
    const channel = new EventStreamChannel(projectId, afterSeq, {
      ...this.#options,
      failurePauseMs: 5000,
      onError: (error) => this.#reportError(error),
      onEmpty: (empty) => {
        if (this.#channels.get(projectId) === empty) this.#channels.delete(projectId);
        if (this.#channels.size === 0) this.#stopTimers();
      },
    });
    this.#channels.set(projectId, channel);
    return channel;
  }

  #subscriptionHooks(channel: EventStreamChannel, release: () => void) {
    return {
      livePosition: () => channel.position,
      onEnd: (subscription: EventStreamSubscription) => {
        release();
        channel.remove(subscription);
      },
      onError: (error: unknown) => this.#reportError(error),
    };
  }

  #startTimers(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(
      () => this.#eachSubscription((one) => one.heartbeat()),
      this.#options.heartbeatIntervalMs,
    );
    this.#heartbeat.unref();
    this.#liveness = setInterval(() => {
      const now = this.#options.clock.now();
      this.#eachSubscription((one) => one.checkReader(now));
    }, this.#options.livenessIntervalMs);
    this.#liveness.unref();
  }

  #eachSubscription(act: (subscription: EventStreamSubscription) => void): void {
    for (const channel of this.#channels.values())
      for (const subscription of [...channel.subscriptions]) act(subscription);
  }

  #stopTimers(): void {
    clearInterval(this.#heartbeat);
    clearInterval(this.#liveness);
    this.#heartbeat = undefined;
    this.#liveness = undefined;
  }

  #assertOpen(): void {
    if (this.#closed) throw storeNotReady('The event stream (the server is closing)');
  }
}
