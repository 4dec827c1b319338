import { storeNotReady } from '../../errors/errors.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { isEventId } from './event-id.ts';
import type { EventLog } from './event-log.ts';
import { EventStreamChannel } from './event-stream-channel.ts';
import type { Authorize } from './event-stream-sink.ts';
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
};

/**
 * The live event stream's hub (issue 22, GET /api/v1/events): subscriptions per project, one
 * live reading per project that has any, a heartbeat for all. Timers are unref'd; close()
 * ends every stream and refuses new ones.
 */
export class EventStream {
  readonly #options: Required<EventStreamOptions>;
  readonly #channels = new Map<string, EventStreamChannel>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #reportError: (error: unknown) => void = () => {};
  #closed = false;

  constructor(options: EventStreamOptions) {
    this.#options = {
      pollIntervalMs: 250,
      heartbeatIntervalMs: 15_000,
      batchLimit: 100,
      maxQueuedEvents: 1000,
      maxBlockedMs: 30_000,
      ...options,
    };
  }

  /** Where failures to read the log go (the server's log); nothing is thrown at a stream for them. */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.#reportError = report;
  }

  /**
   * A subscription to the project's file events, not started yet: after the Last-Event-ID's
   * event when the log still holds it (within the caller's project), else from now (news
   * only, `historyLost` when an id was named). UNAVAILABLE once the hub is closed.
   */
  async subscribe(request: {
    projectId: string;
    lastEventId?: string;
    authorize: Authorize;
  }): Promise<EventStreamSubscription> {
    const { projectId, lastEventId } = request;
    this.#assertOpen();
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
      { ...this.#options, projectId, ...this.#subscriptionHooks(channel) },
      start,
      request.authorize,
    );
    channel.add(subscription);
    this.#startHeartbeat();
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
    this.#stopHeartbeat();
  }

  #openChannel(projectId: string, afterSeq: number): EventStreamChannel {
    const channel = new EventStreamChannel(projectId, afterSeq, {
      ...this.#options,
      failurePauseMs: 5000,
      onError: (error) => this.#reportError(error),
      onEmpty: (empty) => {
        if (this.#channels.get(projectId) === empty) this.#channels.delete(projectId);
        if (this.#channels.size === 0) this.#stopHeartbeat();
      },
    });
    this.#channels.set(projectId, channel);
    return channel;
  }

  #subscriptionHooks(channel: EventStreamChannel) {
    return {
      livePosition: () => channel.position,
      onEnd: (subscription: EventStreamSubscription) => channel.remove(subscription),
      onError: (error: unknown) => this.#reportError(error),
    };
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const channel of this.#channels.values())
        for (const subscription of channel.subscriptions) subscription.heartbeat();
    }, this.#options.heartbeatIntervalMs);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  #assertOpen(): void {
    if (this.#closed) throw storeNotReady('The event stream (the server is closing)');
  }
}
