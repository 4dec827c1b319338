import type { Kysely } from 'kysely';
import type { DueDelivery } from '../../../domain/events/delivery-queue.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { writeTransaction } from '../write-transaction.ts';
import { toDelivery } from './event-rows.ts';

/** DeliveryQueue.takeDue: leases due deliveries, keeping each file's events in order per endpoint. */
export function takeDue(
  db: Kysely<DatabaseSchema>,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<DueDelivery[]> {
  const nowMs = now.getTime();
  return writeTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .selectAll('d')
      .select(['w.url', 'w.secret', 'w.previous_secret', 'w.previous_secret_until'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', nowMs)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', nowMs)]))
      .where('w.enabled', '=', 1)
      // Order per file and endpoint: an earlier event of the file still pending (even leased
      // elsewhere, or waiting for its retry) holds the later ones back.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as e')
              .select('e.id')
              .whereRef('e.webhook_id', '=', 'd.webhook_id')
              .whereRef('e.file_id', '=', 'd.file_id')
              .whereRef('e.event_seq', '<', 'd.event_seq')
              .where('e.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('d.event_seq')
      .limit(limit);
    // Nodes side by side each take other rows: one attempt per delivery at a time.
    if (!isSqlite(db)) query = query.forUpdate('d').skipLocked();
    const rows = await query.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_until: nowMs + leaseMs })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      ...toDelivery(row),
      body: row.body,
      webhook: {
        id: row.webhook_id,
        url: row.url,
        secret: row.secret,
        previousSecret: row.previous_secret,
        previousSecretUntil:
          row.previous_secret_until === null ? null : new Date(Number(row.previous_secret_until)),
      },
    }));
  });
}
