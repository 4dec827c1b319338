import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { folderChanges } from './folder-tallies-per-statement.ts';
import { folderBytes } from './folders.ts';

/**
 * PostgreSQL: the triggers every write of `files` runs, made cheap for the one-row writes that
 * are most of them (an upload request, a verify, a rename; issue 44 item 5):
 *
 * 1. Search's custom values (migrations/search-indexes.ts) ran a PL/pgSQL function for every
 *    inserted and deleted row, though a file without customData has no values to write or
 *    remove: none are written for it, and an update to null removes them. The triggers now say
 *    so in a WHEN clause, which PostgreSQL evaluates without calling the function.
 *
 * 2. The folder tallies (migrations/folder-tallies-per-statement.ts) summed every statement's
 *    changes per folder into a jsonb array, then unpacked it, even for one row. Now:
 *    - an insert of one row upserts its folders directly, in the same order (the root first:
 *      a path's folders are each a prefix of the next, so path order is depth order) and with
 *      the same counts; no count reaches zero on an insert, so no folder is deleted;
 *    - an update of one row that changes nothing a tally reads (owner, project, path, counted
 *      bytes; a row stamp, a link generation, customData) returns at once;
 *    - anything else (many rows, a move, a verify, every delete) goes the per-statement way.
 *    The counts are the same either way: test/contract/folder-counts.test.ts checks them
 *    against a recount after every kind of write, on both stacks.
 *
 * SQLite: nothing (its row triggers already run per row, with WHEN clauses).
 * Expand: the same rows are written, by triggers that fire for older writers too.
 */
export const oneRowTriggers: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`drop trigger files_search_custom on files`.execute(db);
    await sql`create trigger files_search_custom_insert after insert on files
      for each row when (new.custom_data is not null) execute function search_keep_custom_values()`.execute(
      db,
    );
    await sql`create trigger files_search_custom_delete after delete on files
      for each row when (old.custom_data is not null) execute function search_keep_custom_values()`.execute(
      db,
    );
    await replaceTally(db, 'insert', oneRowInsert);
    await replaceTally(db, 'update', unchangedOneRowUpdate);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`drop trigger files_search_custom_insert on files`.execute(db);
    await sql`drop trigger files_search_custom_delete on files`.execute(db);
    await sql`create trigger files_search_custom after insert or delete on files
      for each row execute function search_keep_custom_values()`.execute(db);
    await replaceTally(db, 'insert', '');
    await replaceTally(db, 'update', '');
  },
};

/** The tally trigger's function: `oneRowPath` first (empty: none), then the per-statement way. */
async function replaceTally(db: Kysely<unknown>, event: 'insert' | 'update', oneRowPath: string) {
  await sql
    .raw(`create or replace function tally_folders_on_${event}() returns trigger language plpgsql as $$
    declare
      folder record;
      now_ms bigint;
    begin
      ${oneRowPath}
      perform apply_folder_changes(${folderChanges[event]});
      return null;
    end $$`)
    .execute(db);
}

/** One inserted row: an upsert per folder of its path, the root first. */
const oneRowInsert = `if (select count(*) from new_files) = 1 then
            now_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;
            for folder in select f.project_id, f.creator_id, p.path, p.parent, ${folderBytes('f')} as bytes
                from new_files as f cross join lateral folder_prefixes(f.file_path) as p order by p.path loop
              insert into folders as t (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
                values (folder.project_id, folder.creator_id, folder.path, folder.parent, 1, folder.bytes, now_ms)
                on conflict (project_id, owner_id, path) do update set file_count = t.file_count + 1,
                  total_bytes = t.total_bytes + excluded.total_bytes, updated_at = excluded.updated_at;
            end loop;
            return null;
          end if;`;

/** One updated row whose folder and counted bytes stayed: nothing to tally. */
const unchangedOneRowUpdate = `if (select count(*) from new_files) = 1 and exists (
              select 1 from old_files as o, new_files as n
                where o.project_id = n.project_id and o.creator_id = n.creator_id
                  and o.file_path = n.file_path and ${folderBytes('o')} = ${folderBytes('n')}) then
            return null;
          end if;`;
