import { CofferError, toCofferError } from './errors.ts';
import { isRetryable, wait } from './retry-policy.ts';
import { type SseMessage, SseParser } from './sse-parser.ts';

/** An event of a file the user may read, as GET /api/v1/events streams it. */
export type CofferEvent = {
  /** Sortable and unique: pass it as `lastEventId` to resume after it later. */
  id: string;
  /** file.uploaded, file.updated, file.copied, file.deleted, file.shared, file.unshared, … */
  type: string;
  /** ISO 8601, when it happened. */
  timestamp: string;
  /** fileId, filePath, creator, project, actor {kind, id}, and what the change adds. */
  data: Record<string, unknown>;
};

export type EventsOptions = {
  /** Aborting it ends the iteration (it returns; nothing is thrown). */
  signal?: AbortSignal;
  /** Start after this event (the `id` of the last one an earlier iteration got) instead of now. */
  lastEventId?: string;
};

/** How the stream is opened: the client's app credentials and session. */
export type EventStreamConnection = {
  url: string;
  fetch: typeof fetch;
  /** App credentials and the current token; throws AUTH_REQUIRED when there is no session. */
  headers(): Record<string, string>;
  /** Trades the refresh token for a new session; false when there is none. */
  refresh(): Promise<boolean>;
};

const defaultRetryMs = 1000;
const maxRetryMs = 30_000;

/**
 * The stream as an async iterator. A connection that drops or ends is opened again after a
 * back-off (the server's `retry` doubled per failure in a row, jittered, at most 30 s), from
 * the last event received, so nothing is lost or repeated. An expired token is refreshed; a
 * refusal (a disabled account, no session) is thrown.
 */
export async function* streamEvents(
  connection: EventStreamConnection,
  options: EventsOptions = {},
): AsyncGenerator<CofferEvent> {
  const { signal } = options;
  let lastEventId = options.lastEventId ?? '';
  let retryMs = defaultRetryMs;
  let failures = 0;
  while (!signal?.aborted) {
    // One controller per connection: it closes the connection when the loop leaves it early.
    const controller = new AbortController();
    const stop = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const response = await openStream(connection, lastEventId, controller.signal);
      failures = 0;
      const parser = new SseParser();
      for await (const text of readText(response)) {
        for (const message of parser.push(text)) {
          // Kept before the event is handed on: a consumer that stops there has seen it.
          if (message.id) lastEventId = message.id;
          const event = toCofferEvent(message);
          if (event) yield event;
        }
        retryMs = parser.retryMs ?? retryMs;
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (!isRecoverable(error)) throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
      controller.abort();
    }
    failures += 1;
    const backOffMs = Math.min(retryMs * 2 ** (failures - 1), maxRetryMs) * (0.5 + Math.random() / 2);
    await wait(backOffMs, signal).catch(() => undefined);
  }
}

async function openStream(
  connection: EventStreamConnection,
  lastEventId: string,
  signal: AbortSignal,
  refreshed = false,
): Promise<Response> {
  // The id goes in the query: a browser's preflight would have to allow a Last-Event-ID header.
  const url = lastEventId
    ? `${connection.url}?lastEventId=${encodeURIComponent(lastEventId)}`
    : connection.url;
  const headers = { ...connection.headers(), accept: 'text/event-stream' };
  const response = await connection
    .fetch(url, { headers, signal, cache: 'no-store' })
    .catch((error: unknown) => {
      throw new CofferError(0, 'NETWORK_ERROR', 'The event stream could not reach the server', {
        cause: error,
      });
    });
  if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  if (response.ok) {
    await response.body?.cancel();
    throw new CofferError(response.status, 'NOT_AN_EVENT_STREAM', 'The answer is not an event stream');
  }
  const error = await toCofferError(response);
  if (error.code === 'TOKEN_EXPIRED' && !refreshed && (await connection.refresh()))
    return openStream(connection, lastEventId, signal, true);
  throw error;
}

/** The body as text, a piece at a time; the connection is released when the reading stops. */
async function* readText(response: Response): AsyncGenerator<string> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** A cut connection, a server restarting or busy: worth another connection. */
function isRecoverable(error: unknown): boolean {
  if (!(error instanceof CofferError)) return true; // the body's reading failed: the connection dropped
  return isRetryable(error) || error.status === 429;
}

function toCofferEvent(message: SseMessage): CofferEvent | undefined {
  try {
    const body = JSON.parse(message.data) as Omit<CofferEvent, 'id'>;
    return { id: message.id, type: body.type, timestamp: body.timestamp, data: body.data };
  } catch {
    return undefined; // not an event of ours
  }
}
