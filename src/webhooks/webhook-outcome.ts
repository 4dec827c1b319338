import type { WebhookOutcome } from '../domain/events/webhook-sender.ts';
import type { PostAnswer } from './post-once.ts';
import { toResponseBodyHead } from './response-body-head.ts';
import { toRetryAfterSeconds } from './retry-after-seconds.ts';

/** How much of the body a failed attempt's error (the delivery's lastError) quotes, as before. */
const errorExcerptBytes = 512;

/**
 * What an answer means (Standard Webhooks): 2xx delivered, 410 gone (the receiver asks never to
 * be called again), anything else failed, with the Retry-After it carried.
 */
export function toWebhookOutcome(answer: PostAnswer, durationMs: number, now: Date): WebhookOutcome {
  const { status } = answer;
  const responseBody = toResponseBodyHead(answer.bodyHead, answer.bodyBytes);
  if (status >= 200 && status <= 299) return { kind: 'delivered', status, durationMs, responseBody };
  if (status === 410) return { kind: 'gone', status, durationMs, responseBody };
  const retryAfterSeconds = toRetryAfterSeconds(answer.headers['retry-after'], now);
  const error = toAnswerErrorText(answer);
  return retryAfterSeconds === undefined
    ? { kind: 'failed', status, error, durationMs, responseBody }
    : { kind: 'failed', status, error, retryAfterSeconds, durationMs, responseBody };
}

function toAnswerErrorText(answer: PostAnswer): string {
  let text = `HTTP ${answer.status}`;
  if (answer.status >= 300 && answer.status <= 399) {
    const location = toPrintable(answer.headers.location ?? '').slice(0, 200);
    text += location ? ` (redirect to ${location} not followed)` : ' (redirects are not followed)';
  }
  const excerpt = toPrintable(answer.bodyHead.subarray(0, errorExcerptBytes).toString('utf8'));
  return excerpt ? `${text}: ${excerpt}` : text;
}

/** The receiver's text on one line, without control characters that would forge log lines. */
function toPrintable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
