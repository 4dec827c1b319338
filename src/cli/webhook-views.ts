import type { DeliveryWithAttempts } from '../domain/events/delivery-queue.ts';
import type { Webhook } from '../domain/events/webhook.ts';

/** A webhook as `coffer webhook` prints it: as GET /api/v1/webhooks/:id answers, never the secret. */
export function toWebhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

export type WebhookView = ReturnType<typeof toWebhookView>;

/** A delivery as the deliveries list of the API answers it. */
export function toDeliveryView(delivery: DeliveryWithAttempts) {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    attemptLog: delivery.attemptLog.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
  };
}

export type DeliveryView = ReturnType<typeof toDeliveryView>;

/** enabled, or disabled with the reason the service gave (none when disabled by hand). */
const stateOf = (webhook: WebhookView) =>
  webhook.enabled ? 'enabled' : `disabled${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}`;

export function toWebhookText(webhook: WebhookView): string {
  return [
    `Webhook ${webhook.id}`,
    `  url:     ${webhook.url}`,
    `  events:  ${webhook.events.join(', ')}`,
    `  state:   ${stateOf(webhook)}`,
    ...(webhook.description ? [`  note:    ${webhook.description}`] : []),
    `  created: ${webhook.createdAt}`,
  ].join('\n');
}

/** One line a webhook: id, state, URL, events. */
export function toWebhookLine(webhook: WebhookView): string {
  return `${webhook.id}  ${stateOf(webhook)}  ${webhook.url}  ${webhook.events.join(',')}`;
}

/**
 * One line a delivery (id, event, status, attempts, the last answer or error), then one
 * indented line for each of its attempts; then how to go on.
 */
export function toDeliveriesText(deliveries: DeliveryView[], nextCursor: string | null): string {
  if (deliveries.length === 0) return 'No deliveries';
  const lines = deliveries.flatMap((delivery) => [
    [
      delivery.id,
      delivery.eventType,
      delivery.status,
      `attempts ${delivery.attempts}`,
      `last ${delivery.lastStatus ?? '-'}`,
      ...(delivery.lastError ? [delivery.lastError] : []),
    ].join('  '),
    ...delivery.attemptLog.map(toAttemptLine),
  ]);
  if (nextCursor) lines.push(`(older: --cursor ${nextCursor})`);
  return lines.join('\n');
}

/** How much of an answer's body an attempt's line shows (--json has the whole 1 KiB). */
const bodyShownChars = 80;

/** `  #2  <time>  500  41 ms  <body head>` or `  #3  <time>  timed out after 5 s  5003 ms`. */
function toAttemptLine(attempt: DeliveryView['attemptLog'][number]): string {
  // The receiver's text on one line, without control characters that would forge lines.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const body = (attempt.responseBody ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const shown =
    body.length > bodyShownChars || attempt.responseBodyTruncated
      ? `${body.slice(0, bodyShownChars)}…`
      : body;
  return [
    `    #${attempt.attempt}`,
    attempt.at,
    attempt.statusCode ?? attempt.error ?? '-',
    `${attempt.durationMs} ms`,
    ...(shown ? [shown] : []),
  ].join('  ');
}
