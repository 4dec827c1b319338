import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { DueDelivery, TakeDueOptions } from '../../../domain/events/delivery-queue.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { writeTransaction } from '../write-transaction.ts';
import { toDelivery } from './event-rows.ts';

type DueScope = ExpressionBuilder<
  DatabaseSchema & { d: DatabaseSchema['webhook_deliveries']; w: DatabaseSchema['webhooks'] },
  'd' | 'w'
>;

/**
 * DeliveryQueue.takeDue: leases due deliveries, the endpoints taking turns (issue 35: one slow
 * endpoint must not stall the others), each endpoint under its cap of leases, each file's
 * events in order per endpoint.
 */
export async function takeDue(db: Kysely<DatabaseSchema>, options: TakeDueOptions): Promise<DueDelivery[]> {
  const nowMs = options.now.getTime();
  // Chosen by a plain read: a round that finds nothing (every due endpoint's slots busy, or
  // nothing due) takes no write lock. What it chose is checked again under the lock below.
  const chosen = await chooseTurns(db, options);
  if (chosen.length === 0) return [];
  return writeTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .selectAll('d')
      .select(['w.url', 'w.secret', 'w.previous_secret', 'w.previous_secret_until'])
      .where(
        'd.id',
        'in',
        chosen.map((row) => row.id),
      )
      // Checked again under the lock: another node may have taken or finished one meanwhile.
      .where((eb) => isDue(eb, nowMs));
    // Nodes side by side each take other rows: one attempt per delivery at a time. (PostgreSQL
    // refuses FOR UPDATE beside a window function, hence the second statement.)
    if (!isSqlite(db)) query = query.forUpdate('d').skipLocked();
    const rows = await query.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_until: nowMs + options.leaseMs })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    const turnOf = new Map(chosen.map((row, index) => [row.id, index]));
    return rows
      .sort((a, b) => turnOf.get(a.id)! - turnOf.get(b.id)!)
      .map((row) => ({
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

/** The ids of the due deliveries to take, the endpoints taking turns, each under its cap. */
function chooseTurns(db: Kysely<DatabaseSchema>, options: TakeDueOptions) {
  const nowMs = options.now.getTime();
  // Leases still running, per endpoint: ours and other nodes' (a lapsed one counts no more).
  return (
    db
      .with('leased', (q) =>
        q
          .selectFrom('webhook_deliveries')
          .select((eb) => ['webhook_id', eb.fn.countAll<number>().as('count')])
          .where('status', '=', 'pending')
          .where('lease_until', '>=', nowMs)
          .groupBy('webhook_id'),
      )
      // Each endpoint's due deliveries numbered in event order: its turns.
      .with('due', (q) =>
        q
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .select((eb) => [
            'd.id',
            'd.webhook_id',
            'd.event_seq',
            eb.fn
              .agg<number>('row_number', [])
              .over((over) => over.partitionBy('d.webhook_id').orderBy('d.event_seq'))
              .as('turn'),
          ])
          .where((eb) => isDue(eb, nowMs)),
      )
      .selectFrom('due')
      .leftJoin('leased', 'leased.webhook_id', 'due.webhook_id')
      .select('due.id')
      .where(sql<boolean>`due.turn <= ${options.perEndpoint} - coalesce(leased.count, 0)`)
      // Round-robin: every endpoint's first turn (oldest event first), then every second one.
      .orderBy('due.turn')
      .orderBy('due.event_seq')
      .limit(options.limit)
      .execute()
  );
}

/** Pending, due, not leased, its endpoint enabled, and no earlier event of its file waiting. */
function isDue(eb: DueScope, nowMs: number) {
  return eb.and([
    eb('d.status', '=', 'pending'),
    eb('d.next_attempt_at', '<=', nowMs),
    eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', nowMs)]),
    eb('w.enabled', '=', 1),
    // Order per file and endpoint: an earlier event of the file still pending (even leased
    // elsewhere, or waiting for its retry) holds the later ones back.
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
  ]);
}
