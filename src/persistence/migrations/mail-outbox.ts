import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Outgoing mail (issue 23; domain/mail/): a queue in the metadata store, so a mail queued in a
 * flow's transaction survives an SMTP outage or a crash. The bodies go once a mail is sent or
 * given up (they hold single-use tokens); the headers and the status stay until the retention.
 */
export const mailOutbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('to_address', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('text_body', 'text')
      .addColumn('html_body', 'text')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('mail_outbox_due_idx')
      .on('mail_outbox')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').column('created_at').execute();
    await db.schema
      .createIndex('mail_outbox_project_idx')
      .on('mail_outbox')
      .columns(['project_id', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_outbox').execute();
  },
};
