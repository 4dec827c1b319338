import { type Kysely, sql } from 'kysely';
import type { DeliveryQueue } from '../../../domain/events/delivery-queue.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { toWebhook } from '../kysely-webhook-repository.ts';
import { writeTransaction } from '../write-transaction.ts';
import { toStoredEvent } from './event-rows.ts';

const positionName = 'webhooks';

/** DeliveryQueue.fanOut: committed events past the position → deliveries, and the position moves on. */
export async function fanOut(
  db: Kysely<DatabaseSchema>,
  options: Parameters<DeliveryQueue['fanOut']>[0],
): Promise<number> {
  const sqlite = isSqlite(db);
  // Most rounds find nothing (the deliverer runs one whenever an attempt ends): a plain read
  // says so without a write transaction, which on SQLite would take the one write lock.
  const waiting = await db
    .selectFrom('events')
    .select('seq')
    .where((eb) =>
      eb('seq', '>', eb.selectFrom('outbox_positions').select('seq').where('name', '=', positionName)),
    )
    .limit(1)
    .executeTakeFirst();
  if (waiting === undefined) return 0;
  return writeTransaction(db, async (trx) => {
    const read = await trx
      .selectFrom('outbox_positions')
      .select('seq')
      .where('name', '=', positionName)
      .executeTakeFirstOrThrow();
    let query = trx
      .selectFrom('events')
      .selectAll()
      .where('seq', '>', read.seq)
      .orderBy('seq')
      .limit(options.limit);
    // PostgreSQL hands out seq before commit: only rows of transactions older than every one
    // still running are read, so one that commits late with a smaller seq is never passed by.
    // (This transaction has no id of its own yet: it has only read.)
    if (!sqlite) query = query.where(sql<boolean>`tx_id < pg_snapshot_xmin(pg_current_snapshot())`);
    const rows = await query.execute();
    if (rows.length === 0) return 0;
    // Locked now, and checked: another node that fanned out meanwhile did this batch.
    const locked = sqlite
      ? read
      : await trx
          .selectFrom('outbox_positions')
          .select('seq')
          .where('name', '=', positionName)
          .forUpdate()
          .executeTakeFirstOrThrow();
    if (Number(locked.seq) !== Number(read.seq)) {
      await trx.rollback().execute();
      return 0;
    }
    const events = rows.map(toStoredEvent);
    const projectIds = [...new Set(events.map((event) => event.projectId))];
    const webhooks = (
      await trx
        .selectFrom('webhooks')
        .selectAll()
        .where('project_id', 'in', projectIds)
        .where('enabled', '=', 1)
        .execute()
    ).map(toWebhook);
    const nowMs = options.now.getTime();
    const deliveries = events.flatMap((event) =>
      webhooks
        .filter((webhook) => webhook.projectId === event.projectId && options.wants(webhook, event))
        .map((webhook) => ({
          id: options.newId(),
          webhook_id: webhook.id,
          event_seq: event.seq,
          event_id: event.id,
          event_type: event.type,
          file_id: event.fileId,
          body: options.bodyOf(event),
          status: 'pending',
          attempts: 0,
          next_attempt_at: nowMs,
          last_attempt_at: null,
          last_status: null,
          last_error: null,
          lease_until: null,
          created_at: nowMs,
        })),
    );
    for (let start = 0; start < deliveries.length; start += 100)
      await trx
        .insertInto('webhook_deliveries')
        .values(deliveries.slice(start, start + 100))
        .execute();
    await trx
      .updateTable('outbox_positions')
      .set({ seq: events.at(-1)!.seq })
      .where('name', '=', positionName)
      .execute();
    return events.length;
  });
}
