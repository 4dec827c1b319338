import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Every attempt of a webhook delivery (issue 43, item 7), as Svix and Stripe show them: when, the
 * status code or the network error, how long, and the head of the answer's body. Written by the
 * delivery worker in the transaction that records the delivery's outcome. Bounded: at most the
 * retry schedule's attempts per delivery are kept (a manual retry past them drops the oldest),
 * and they go with their delivery (the retention, a webhook's removal) by the cascade. Never the
 * request's signature or the endpoint's secret. Deliveries from before this migration list none.
 */
export const deliveryAttempts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_delivery_attempts')
      .addColumn('delivery_id', 'text', (col) =>
        col.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('attempt', 'integer', (col) => col.notNull())
      .addColumn('started_at', 'bigint', (col) => col.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (col) => col.notNull())
      .addColumn('response_body', 'text')
      .addColumn('response_body_truncated', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('webhook_delivery_attempts_pk', ['delivery_id', 'attempt'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_delivery_attempts').execute();
  },
};
