import { type Kysely, sql } from 'kysely';
import type { AttemptRecord } from '../../domain/events/delivery-attempt.ts';
import type {
  AttemptResult,
  Delivery,
  DeliveryQueue,
  DeliveryWithAttempts,
  DueDelivery,
  TakeDueOptions,
} from '../../domain/events/delivery-queue.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { appendAttempt, listAttempts } from './events/delivery-attempts.ts';
import { toDelivery } from './events/event-rows.ts';
import { fanOut } from './events/fan-out.ts';
import { takeDue } from './events/take-due.ts';
import { writeTransaction } from './write-transaction.ts';

/** Webhook deliveries (migrations/events.ts): the fan-out, the leases, the attempts. */
export class KyselyDeliveryQueue implements DeliveryQueue {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  fanOut(options: Parameters<DeliveryQueue['fanOut']>[0]): Promise<number> {
    return fanOut(this.#db, options);
  }

  takeDue(options: TakeDueOptions): Promise<DueDelivery[]> {
    return takeDue(this.#db, options);
  }

  async recordAttempt(deliveryId: string, result: AttemptResult, now: Date): Promise<void> {
    await writeTransaction(this.#db, async (trx) => {
      const recorded = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: result.status,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: result.nextAttemptAt?.getTime() ?? null,
          last_attempt_at: now.getTime(),
          last_status: result.lastStatus,
          last_error: result.lastError,
          lease_until: null,
        }))
        .where('id', '=', deliveryId)
        .returning('attempts')
        .executeTakeFirst();
      // Gone meanwhile (its webhook removed): nothing to log.
      if (!recorded) return;
      await appendAttempt(trx, {
        deliveryId,
        attempt: Number(recorded.attempts),
        record: result.attempt,
        keep: result.keepAttempts,
      });
    });
  }

  async recordTest(delivery: Omit<Delivery, 'fileId'> & { body: string; attempt: AttemptRecord }) {
    await writeTransaction(this.#db, async (trx) => {
      await trx
        .insertInto('webhook_deliveries')
        .values({
          id: delivery.id,
          webhook_id: delivery.webhookId,
          event_seq: 0,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          file_id: null,
          body: delivery.body,
          status: delivery.status,
          attempts: delivery.attempts,
          next_attempt_at: delivery.nextAttemptAt?.getTime() ?? null,
          last_attempt_at: delivery.lastAttemptAt?.getTime() ?? null,
          last_status: delivery.lastStatus,
          last_error: delivery.lastError,
          lease_until: null,
          created_at: delivery.createdAt.getTime(),
        })
        .execute();
      await appendAttempt(trx, { deliveryId: delivery.id, attempt: 1, record: delivery.attempt, keep: 1 });
    });
  }

  async list(webhookId: string, page: { before?: string; limit: number }): Promise<DeliveryWithAttempts[]> {
    let query = this.#db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(page.limit);
    if (page.before) query = query.where('id', '<', page.before);
    const deliveries = (await query.execute()).map(toDelivery);
    const attempts = await listAttempts(
      this.#db,
      deliveries.map((delivery) => delivery.id),
    );
    return deliveries.map((delivery) => ({ ...delivery, attemptLog: attempts.get(delivery.id) ?? [] }));
  }

  async retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    const result = await this.#db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        next_attempt_at: now.getTime(),
        // An attempt in flight keeps its lease: released, the delivery would be attempted twice
        // at once, and its endpoint's slots (the leases) overrun.
        lease_until: sql<number | null>`case when lease_until >= ${now.getTime()} then lease_until end`,
      })
      .where('id', '=', deliveryId)
      .where('webhook_id', '=', webhookId)
      .where('event_seq', '>', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async measureLag(now: Date) {
    const position = await this.#db
      .selectFrom('outbox_positions')
      .select('seq')
      .where('name', '=', 'webhooks')
      .executeTakeFirstOrThrow();
    const behind = await this.#db
      .selectFrom('events')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('occurred_at').as('oldest')])
      .where('seq', '>', position.seq)
      .executeTakeFirstOrThrow();
    const pending = await this.#db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const oldest = behind.oldest === null ? null : Number(behind.oldest);
    return {
      eventsBehind: Number(behind.count),
      oldestBehindSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
      pendingDeliveries: Number(pending.count),
    };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const beforeMs = before.getTime();
    const old = await this.#db
      .selectFrom('events')
      .select('seq')
      .where('occurred_at', '<', beforeMs)
      .orderBy('occurred_at')
      .limit(limit)
      .execute();
    if (old.length > 0)
      await this.#db
        .deleteFrom('events')
        .where(
          'seq',
          'in',
          old.map((row) => row.seq),
        )
        .execute();
    // Deliveries still pending stay, whatever their age: they are work, not history. Their
    // attempts go with them (the foreign key's cascade, by the attempts' primary key).
    await this.#db
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', beforeMs)
      .where('status', '!=', 'pending')
      .execute();
    return old.length;
  }
}
