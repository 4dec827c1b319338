import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Principal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { NewEvent, StoredEvent } from './event.ts';
import { newEventId } from './event-id.ts';
import type { EventLog } from './event-log.ts';
import { EventStream } from './event-stream.ts';
import type { EventStreamSink, StreamEndReason } from './event-stream-sink.ts';

/** The EventLog port over an array (the Kysely one runs in test/events/ on both databases). */
class ArrayEventLog implements EventLog {
  readonly events: StoredEvent[] = [];

  append(fileId: string): StoredEvent {
    const at = new Date();
    const event: StoredEvent = {
      ...{ id: newEventId(at), type: 'file.updated', occurredAt: at, projectId: 'p1', fileId },
      actor: { kind: 'user', id: 'u1', ip: null, userAgent: null },
      data: { fileId, creator: 'u1' },
      seq: this.events.length + 1,
    };
    this.events.push(event);
    return event;
  }
  async search() {
    return [];
  }
  async readAfter(projectId: string, afterSeq: number, limit: number) {
    return this.events
      .filter((event) => event.projectId === projectId && event.seq > afterSeq)
      .slice(0, limit);
  }
  async findById(projectId: string, eventId: string) {
    return this.events.find((event) => event.projectId === projectId && event.id === eventId);
  }
  async findLatestSeq() {
    return this.events.length;
  }
  async record(event: NewEvent) {
    this.events.push({ ...event, seq: this.events.length + 1 });
  }
}

/** A consumer whose buffer is full while `full` is set; it never takes more until drained. */
class TestSink implements EventStreamSink {
  readonly sent: StoredEvent[] = [];
  endedWith: StreamEndReason | undefined;
  full = false;
  #waiting: Array<(room: boolean) => void> = [];

  send(event: StoredEvent): boolean {
    this.sent.push(event);
    return !this.full;
  }
  comment(): boolean {
    return true;
  }
  drained(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      setTimeout(() => resolve(!this.full), timeoutMs).unref();
    });
  }
  end(reason: StreamEndReason): void {
    this.endedWith = reason;
    for (const resolve of this.#waiting) resolve(false);
  }
}

const reader: Principal = { userId: 'u1', projectId: 'p1', role: 'user', isAdmin: false };
const file = {
  id: 'f1',
  projectId: 'p1',
  creatorId: 'u1',
  permissionScope: 'user',
  acl: [],
} as unknown as FileRecord;

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function startHub(options: { maxQueuedEvents?: number; maxBlockedMs?: number; batchLimit?: number } = {}) {
  const log = new ArrayEventLog();
  const lookups: string[] = [];
  const files = {
    findById: async (id: string) => {
      lookups.push(id);
      return id === file.id ? file : undefined;
    },
  };
  const hub = new EventStream({ log, files, pollIntervalMs: 5, ...options });
  const open = async (lastEventId?: string) => {
    const subscription = await hub.subscribe({ projectId: 'p1', lastEventId, authorize: async () => reader });
    const sink = new TestSink();
    subscription.start(sink);
    return sink;
  };
  return { log, lookups, hub, open };
}

describe('EventStream', () => {
  it('looks each file of a batch up once, whatever the number of subscribers', async () => {
    const { log, lookups, hub, open } = startHub();
    const sinks = [await open(), await open(), await open()];
    for (let i = 0; i < 5; i++) log.append(file.id); // one batch: the next read finds all five
    await waitFor(() => sinks.every((sink) => sink.sent.length === 5), 'every subscriber to get 5 events');
    assert.deepEqual(lookups, [file.id]);
    hub.close();
    assert.deepEqual(
      sinks.map((sink) => sink.endedWith),
      ['closed', 'closed', 'closed'],
    );
  });

  it('replays after a Last-Event-ID in order, a bounded batch at a time', async () => {
    const { log, hub, open } = startHub({ batchLimit: 2 });
    const all = Array.from({ length: 7 }, () => log.append(file.id));
    const sink = await open(all[1]!.id);
    await waitFor(() => sink.sent.length === 5, 'the five events after the second');
    assert.deepEqual(
      sink.sent.map((event) => event.seq),
      [3, 4, 5, 6, 7],
    );
    hub.close();
  });

  it('ends the stream of a consumer whose buffer stays full too long', async () => {
    const { log, hub, open } = startHub({ maxBlockedMs: 20 });
    const sink = await open();
    sink.full = true;
    log.append(file.id);
    await waitFor(() => sink.endedWith !== undefined, 'the stream to end');
    assert.equal(sink.endedWith, 'slow');
    assert.equal(hub.isReading('p1'), false, 'its project is no longer read');
  });

  it('ends the stream of a consumer with more queued than the cap, instead of queueing on', async () => {
    const { log, hub, open } = startHub({ maxQueuedEvents: 5, maxBlockedMs: 60_000 });
    const sink = await open();
    sink.full = true;
    log.append(file.id);
    await waitFor(() => sink.sent.length === 1, 'the first event, which fills the buffer');
    for (let i = 0; i < 6; i++) log.append(file.id);
    await waitFor(() => sink.endedWith !== undefined, 'the stream to end');
    assert.equal(sink.endedWith, 'slow');
    assert.equal(sink.sent.length, 1);
    assert.equal(hub.countSubscriptions('p1'), 0);
  });
});
