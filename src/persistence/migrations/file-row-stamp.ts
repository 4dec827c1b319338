import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * `files.row_stamp`: a number the database moves whenever a file's row or its ACL changes,
 * whoever writes (any repository, another worker or node, the CLI, plain SQL). The file
 * repository keeps each file it read with the stamp it had, and answers the kept record while
 * a one-column read of the stamp still finds the same number (repositories/files/
 * file-view-cache.ts): a changed share, a revocation or a replacement is seen at once, by every
 * process, as before, for a fraction of the full read. Triggers rather than repository code, so
 * no writer can forget it (as `access_epoch`).
 */
export const fileRowStamp: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('files')
      .addColumn('row_stamp', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      // SQLite has no BEFORE trigger that may change NEW: the stamp moves in a second update
      // (which fires no trigger again: recursive triggers are off), unless the statement moved it.
      await sql`create trigger files_row_stamp after update on files
        when new.row_stamp = old.row_stamp
        begin update files set row_stamp = old.row_stamp + 1 where id = new.id; end`.execute(db);
      for (const [event, row] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        await sql`create trigger ${sql.raw(`file_acl_${event}_row_stamp`)} after ${sql.raw(event)} on file_acl
          begin update files set row_stamp = row_stamp + 1 where id = ${sql.raw(row)}.file_id; end`.execute(
          db,
        );
      }
      return;
    }
    await sql`create function bump_file_row_stamp() returns trigger language plpgsql as $$
      begin new.row_stamp := old.row_stamp + 1; return new; end $$`.execute(db);
    await sql`create trigger files_row_stamp before update on files
      for each row execute function bump_file_row_stamp()`.execute(db);
    // The ACL's changes touch their file's row, whose own trigger then moves the stamp.
    await sql`create function touch_file_of_acl() returns trigger language plpgsql as $$
      begin
        update files set row_stamp = row_stamp
          where id = (case when tg_op = 'DELETE' then old.file_id else new.file_id end);
        return null;
      end $$`.execute(db);
    await sql`create trigger file_acl_row_stamp after insert or update or delete on file_acl
      for each row execute function touch_file_of_acl()`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const name of ['files', 'file_acl_insert', 'file_acl_update', 'file_acl_delete'].map(
        (n) => `${n}_row_stamp`,
      ))
        await sql`drop trigger ${sql.raw(name)}`.execute(db);
    } else {
      await sql`drop function touch_file_of_acl() cascade`.execute(db);
      await sql`drop function bump_file_row_stamp() cascade`.execute(db);
    }
    await db.schema.alterTable('files').dropColumn('row_stamp').execute();
  },
};
