import type { Kysely, Selectable } from 'kysely';
import type { AttemptRecord, DeliveryAttempt } from '../../../domain/events/delivery-attempt.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import type { WebhookDeliveryAttemptsTable } from '../../outbox-schema.ts';

/**
 * Adds attempt `attempt` of a delivery to its log and drops those older than the last `keep`:
 * a delivery retried by hand past its schedule keeps a bounded log. Runs inside the
 * transaction that records the delivery's outcome.
 */
export async function appendAttempt(
  db: Kysely<DatabaseSchema>,
  options: { deliveryId: string; attempt: number; record: AttemptRecord; keep: number },
): Promise<void> {
  const { deliveryId, attempt, record } = options;
  await db
    .insertInto('webhook_delivery_attempts')
    .values({
      delivery_id: deliveryId,
      attempt,
      started_at: record.at.getTime(),
      status_code: record.statusCode,
      error: record.error,
      duration_ms: Math.max(0, Math.round(record.durationMs)),
      // PostgreSQL's text holds no NUL; a receiver's bytes may.
      response_body: record.responseBody?.replaceAll('\u0000', '\ufffd') ?? null,
      response_body_truncated: record.responseBodyTruncated ? 1 : 0,
    })
    .execute();
  if (attempt > options.keep)
    await db
      .deleteFrom('webhook_delivery_attempts')
      .where('delivery_id', '=', deliveryId)
      .where('attempt', '<=', attempt - options.keep)
      .execute();
}

/** The attempts of these deliveries (one page of them), oldest first, by delivery id. */
export async function listAttempts(
  db: Kysely<DatabaseSchema>,
  deliveryIds: readonly string[],
): Promise<Map<string, DeliveryAttempt[]>> {
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  for (const row of rows) {
    const attempts = byDelivery.get(row.delivery_id) ?? [];
    attempts.push(toDeliveryAttempt(row));
    byDelivery.set(row.delivery_id, attempts);
  }
  return byDelivery;
}

function toDeliveryAttempt(row: Selectable<WebhookDeliveryAttemptsTable>): DeliveryAttempt {
  return {
    attempt: Number(row.attempt),
    at: new Date(Number(row.started_at)),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    error: row.error,
    durationMs: Number(row.duration_ms),
    responseBody: row.response_body,
    responseBodyTruncated: Boolean(row.response_body_truncated),
  };
}
