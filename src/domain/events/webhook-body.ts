import type { StoredEvent } from './event.ts';

/**
 * The body every attempt of an event's delivery sends (Standard Webhooks: `{type, timestamp,
 * data}`), fixed once so that each retry sends, and signs, the same bytes. The project and the
 * actor's kind and id ride along in data; the actor's address and user agent stay in the audit
 * log (they are the users', not the receiver's business).
 */
export function toWebhookBody(event: StoredEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: { ...event.data, project: event.projectId, actor: { kind: event.actor.kind, id: event.actor.id } },
  });
}
