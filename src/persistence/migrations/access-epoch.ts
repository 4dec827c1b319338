import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The tables whose rows barriers 2–3 read on every request (app credentials, accounts). */
const watchedTables = ['projects', 'users'] as const;

/**
 * One number the database bumps whenever a project or a user changes or goes, whoever writes
 * (a server, `coffer user disable`, another node, plain SQL): processes cache projects and users
 * and re-read only this number, at most every 250 ms (domain/identity/access-epoch-watch.ts).
 * Triggers rather than repository code, so no writer can forget it.
 */
export const accessEpoch: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('access_epoch')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('value', 'bigint', (col) => col.notNull())
      .execute();
    await sql`insert into access_epoch (id, value) values (1, 0)`.execute(db);
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    if (!sqlite) {
      await sql`create function bump_access_epoch() returns trigger language plpgsql as $$
        begin update access_epoch set value = value + 1 where id = 1; return null; end $$`.execute(db);
    }
    for (const table of watchedTables) {
      if (sqlite) {
        for (const event of ['update', 'delete'] as const) {
          await sql`create trigger ${sql.raw(`${table}_${event}_access_epoch`)} after ${sql.raw(event)} on ${sql.table(table)}
            begin update access_epoch set value = value + 1 where id = 1; end`.execute(db);
        }
      } else {
        await sql`create trigger ${sql.raw(`${table}_access_epoch`)} after update or delete on ${sql.table(table)}
          for each statement execute function bump_access_epoch()`.execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const table of watchedTables)
        for (const event of ['update', 'delete'])
          await sql`drop trigger ${sql.raw(`${table}_${event}_access_epoch`)}`.execute(db);
    } else {
      // The triggers go with their function.
      await sql`drop function bump_access_epoch() cascade`.execute(db);
    }
    await db.schema.dropTable('access_epoch').execute();
  },
};
