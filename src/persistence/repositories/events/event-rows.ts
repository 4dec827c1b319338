import type { Selectable } from 'kysely';
import type { Delivery, DeliveryStatus } from '../../../domain/events/delivery-queue.ts';
import type { Actor, EventData, EventType, StoredEvent } from '../../../domain/events/event.ts';
import type { EventsTable, WebhookDeliveriesTable } from '../../database-schema.ts';

export function toStoredEvent(row: Selectable<EventsTable>): StoredEvent {
  return {
    seq: Number(row.seq),
    id: row.id,
    type: row.type as EventType,
    occurredAt: new Date(Number(row.occurred_at)),
    projectId: row.project_id,
    actor: {
      kind: row.actor_kind as Actor['kind'],
      id: row.actor_id,
      ip: row.actor_ip,
      userAgent: row.actor_user_agent,
    },
    fileId: row.file_id,
    data: JSON.parse(row.data) as EventData,
  };
}

const date = (ms: number | null) => (ms === null ? null : new Date(Number(ms)));

export function toDelivery(row: Selectable<WebhookDeliveriesTable>): Delivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    fileId: row.file_id,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: date(row.next_attempt_at),
    lastAttemptAt: date(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: new Date(Number(row.created_at)),
  };
}
