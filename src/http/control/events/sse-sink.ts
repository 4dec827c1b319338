import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '../../../domain/events/event.ts';
import type { EventStreamSink, StreamEndReason } from '../../../domain/events/event-stream-sink.ts';
import { toWebhookBody } from '../../../domain/events/webhook-body.ts';

/**
 * An event as a Server-Sent Events message (HTML Living Standard, 9.2): the event id as `id`
 * (what a client sends back as Last-Event-ID), its type as `event`, and as `data` the body a
 * webhook gets, `{type, timestamp, data}`. JSON.stringify escapes CR and LF, so the body is one
 * `data:` line.
 */
export function toSseMessage(event: StoredEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${toWebhookBody(event)}\n\n`;
}

/** Writes a subscription's events to a hijacked response, with Node's backpressure. */
export class SseSink implements EventStreamSink {
  readonly #response: ServerResponse;

  constructor(response: ServerResponse) {
    this.#response = response;
  }

  send(event: StoredEvent): boolean {
    return this.#write(toSseMessage(event));
  }

  comment(text: string): boolean {
    return this.#write(`: ${text}\n\n`);
  }

  drained(timeoutMs: number): Promise<boolean> {
    const response = this.#response;
    if (!this.#isOpen()) return Promise.resolve(false);
    if (!response.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (room: boolean) => {
        clearTimeout(timer);
        response.off('drain', onDrain);
        response.off('close', onClose);
        resolve(room);
      };
      const onDrain = () => settle(true);
      const onClose = () => settle(false);
      const timer = setTimeout(onClose, timeoutMs);
      timer.unref();
      response.on('drain', onDrain);
      response.on('close', onClose);
    });
  }

  end(reason: StreamEndReason): void {
    if (!this.#isOpen()) return;
    // A consumer that stopped reading would never take the rest: drop the connection and what
    // is buffered for it. Its client resends the id of the last event it got whole.
    if (reason === 'slow') return void this.#response.destroy();
    this.#write(`: stream ended (${reason})\n\n`);
    this.#response.end();
  }

  #write(text: string): boolean {
    return this.#isOpen() ? this.#response.write(text) : false;
  }

  #isOpen(): boolean {
    return !this.#response.destroyed && !this.#response.writableEnded;
  }
}
