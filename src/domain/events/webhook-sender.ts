/** One attempt to deliver one event to one endpoint (Standard Webhooks). */
export type WebhookAttempt = {
  /** The endpoint's URL (http or https). */
  url: string;
  /**
   * The endpoint's signing secrets (`whsec_…`), newest first: each signs the attempt, so a
   * receiver that knows either verifies it while a rotation is under way.
   */
  secrets: readonly string[];
  /** The event id: `webhook-id`, the same on every attempt (the receiver's idempotency key). */
  eventId: string;
  /** This attempt's time: `webhook-timestamp`, signed with the body. */
  attemptedAt: Date;
  /** The JSON body `{type, timestamp, data}`, sent and signed byte for byte. */
  body: string;
};

/** The head of an answer's body: its first 1 KiB as text, cut at a character, and whether there was more. */
export type ResponseBodyHead = { text: string; truncated: boolean };

/**
 * What an attempt came to; the deliverer decides what follows (retry, disable, done).
 * `responseBody` whenever an answer came.
 */
export type WebhookOutcome =
  /** A 2xx answer. */
  | { kind: 'delivered'; status: number; durationMs: number; responseBody?: ResponseBodyHead }
  /** 410 Gone: the receiver asks never to be called again; the endpoint is disabled. */
  | { kind: 'gone'; status: 410; durationMs: number; responseBody?: ResponseBodyHead }
  /**
   * Anything else: another status (3xx included, never followed), a timeout, a connection
   * failure, a refused address. `retryAfterSeconds` when the answer carried `Retry-After`.
   */
  | {
      kind: 'failed';
      status?: number;
      error: string;
      retryAfterSeconds?: number;
      durationMs: number;
      responseBody?: ResponseBodyHead;
    };

/** Sends webhook attempts over HTTP, guarded against requests into private networks. */
export interface WebhookSender {
  send(attempt: WebhookAttempt, signal?: AbortSignal): Promise<WebhookOutcome>;
  /**
   * Throws VALIDATION_FAILED naming why, unless `url` is an http(s) URL whose host resolves
   * only to addresses webhooks may reach (checked again at every delivery, after resolution).
   */
  assertAllowedTarget(url: string): Promise<void>;
}
