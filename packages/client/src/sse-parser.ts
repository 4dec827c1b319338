/** A message of a Server-Sent Events stream that carried data. */
export type SseMessage = { id: string; event: string; data: string };

/**
 * Parses an event stream as its text arrives (HTML Living Standard, 9.2.6 "Interpreting an
 * event stream"): lines end in CRLF, LF or CR, even across chunks; `:` starts a comment; a
 * blank line dispatches the message gathered so far, if it has data; `id` persists as the
 * last event id; `retry` sets the reconnection time. What is left at the end is discarded.
 */
export class SseParser {
  /** The id to resume after (sent back as Last-Event-ID); set at each dispatch, as the spec says. */
  lastEventId = '';
  /** The server's reconnection time in milliseconds, once it sent one. */
  retryMs: number | undefined;
  #buffer = '';
  #idBuffer = '';
  #event = '';
  #data: string[] = [];

  /** Takes the next piece of decoded text; answers the messages it completed. */
  push(text: string): SseMessage[] {
    this.#buffer += text;
    const messages: SseMessage[] = [];
    let start = 0;
    for (let index = 0; index < this.#buffer.length; index++) {
      const char = this.#buffer[index];
      if (char !== '\n' && char !== '\r') continue;
      // A CR that ends the text so far may be the first half of a CRLF: wait for the next piece.
      if (char === '\r' && index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(start, index);
      if (char === '\r' && this.#buffer[index + 1] === '\n') index++;
      start = index + 1;
      const message = this.#takeLine(line);
      if (message) messages.push(message);
    }
    this.#buffer = this.#buffer.slice(start);
    return messages;
  }

  #takeLine(line: string): SseMessage | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.#idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    this.lastEventId = this.#idBuffer;
    const data = this.#data;
    const event = this.#event || 'message';
    this.#data = [];
    this.#event = '';
    return data.length === 0 ? undefined : { id: this.lastEventId, event, data: data.join('\n') };
  }
}
