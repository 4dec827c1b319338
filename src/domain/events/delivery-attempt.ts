import type { WebhookOutcome } from './webhook-sender.ts';

/** The longest network error text an attempt keeps (a receiver's words are in its body head). */
const maxErrorLength = 500;

/** One attempt of a delivery, as its receiver answered it, or why none came (issue 43, item 7). */
export type DeliveryAttempt = {
  /** 1 for the first. */
  attempt: number;
  at: Date;
  /** The answer's status; null when none came. */
  statusCode: number | null;
  /** Why no answer came (a timeout, a connection reset, a refused address); null with a status. */
  error: string | null;
  durationMs: number;
  /** The first 1 KiB of the answer's body as text, cut at a character; null without an answer. */
  responseBody: string | null;
  responseBodyTruncated: boolean;
};

/** An attempt before it is numbered (the queue numbers it when it records it). */
export type AttemptRecord = Omit<DeliveryAttempt, 'attempt'>;

/** What an outcome leaves in the attempt log. */
export function toAttemptRecord(outcome: WebhookOutcome, at: Date): AttemptRecord {
  const answered = outcome.kind !== 'failed' || outcome.status !== undefined;
  return {
    at,
    statusCode: outcome.status ?? null,
    error: answered || outcome.kind !== 'failed' ? null : outcome.error.slice(0, maxErrorLength),
    durationMs: outcome.durationMs,
    responseBody: outcome.responseBody?.text ?? (answered ? '' : null),
    responseBodyTruncated: outcome.responseBody?.truncated ?? false,
  };
}
