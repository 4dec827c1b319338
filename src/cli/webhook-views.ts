import type { Delivery } from '../domain/events/delivery-queue.ts';
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
export function toDeliveryView(delivery: Delivery) {
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

/** One line a delivery: id, event, status, attempts, the last answer or error; then how to go on. */
export function toDeliveriesText(deliveries: DeliveryView[], nextCursor: string | null): string {
  if (deliveries.length === 0) return 'No deliveries';
  const lines = deliveries.map((delivery) =>
    [
      delivery.id,
      delivery.eventType,
      delivery.status,
      `attempts ${delivery.attempts}`,
      `last ${delivery.lastStatus ?? '-'}`,
      ...(delivery.lastError ? [delivery.lastError] : []),
    ].join('  '),
  );
  if (nextCursor) lines.push(`(older: --cursor ${nextCursor})`);
  return lines.join('\n');
}
