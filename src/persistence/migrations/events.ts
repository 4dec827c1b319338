import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Events (issue 22; domain/events/): `events` is the outbox, the stream's source and the audit
 * log, written in the transaction of each change; `seq` orders it. On PostgreSQL each row also
 * keeps the id of the transaction that wrote it (`tx_id`): a reader takes only rows of
 * transactions older than every one still running, so a row whose transaction commits late
 * (with a smaller seq) is never skipped. SQLite has one writer at a time: seq order is commit
 * order. Webhooks and their deliveries hang off projects; `outbox_positions` holds how far the
 * fan-out to webhooks has read.
 */
export const events: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    let table = db.schema
      .createTable('events')
      .addColumn('seq', sqlite ? 'integer' : 'bigserial', (col) =>
        sqlite ? col.primaryKey().autoIncrement() : col.primaryKey(),
      )
      .addColumn('id', 'text', (col) => col.notNull().unique())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('occurred_at', 'bigint', (col) => col.notNull())
      .addColumn('actor_kind', 'text', (col) => col.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_ip', 'text')
      .addColumn('actor_user_agent', 'text')
      .addColumn('file_id', 'text')
      .addColumn('data', 'text', (col) => col.notNull());
    if (!sqlite)
      table = table.addColumn('tx_id', sql`xid8`, (col) =>
        col.notNull().defaultTo(sql`pg_current_xact_id()`),
      );
    await table.execute();
    for (const [name, columns] of [
      ['events_project_idx', ['project_id', 'seq']],
      ['events_project_type_idx', ['project_id', 'type', 'seq']],
      ['events_project_actor_idx', ['project_id', 'actor_id', 'seq']],
      ['events_project_file_idx', ['project_id', 'file_id', 'seq']],
      ['events_occurred_idx', ['occurred_at']],
    ] as const)
      await db.schema
        .createIndex(name)
        .on('events')
        .columns([...columns])
        .execute();

    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('events', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('webhooks_project_idx').on('webhooks').column('project_id').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('webhook_id', 'text', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_seq', 'bigint', (col) => col.notNull())
      .addColumn('event_id', 'text', (col) => col.notNull())
      .addColumn('event_type', 'text', (col) => col.notNull())
      .addColumn('file_id', 'text')
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due_idx')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_order_idx')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'file_id', 'event_seq'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_webhook_idx')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'id'])
      .execute();

    await db.schema
      .createTable('outbox_positions')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('seq', 'bigint', (col) => col.notNull())
      .execute();
    await db
      .insertInto('outbox_positions' as never)
      .values({ name: 'webhooks', seq: 0 } as never)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const name of ['outbox_positions', 'webhook_deliveries', 'webhooks', 'events'])
      await db.schema.dropTable(name).execute();
  },
};
