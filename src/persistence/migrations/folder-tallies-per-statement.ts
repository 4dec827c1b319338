import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { folderBytes } from './folders.ts';

/**
 * PostgreSQL: the folder counts (migrations/folders.ts) kept once per statement, not once per
 * row. A folder move or delete changes thousands of files in one statement, and the row
 * triggers updated the same ~15 ancestor rows once per file: inside one transaction each update
 * leaves a row version the next one walks past, so a 10,000-file move took 112.7 s, growing
 * with the square of the folder (docs/benchmarks.md, "Folders"). Now each statement sums its
 * changes per folder (the transition tables) and writes each folder once.
 *
 * SQLite updates rows in place, so its row triggers stay (a 10,000-file move: 2.9 s).
 */
export const folderTalliesPerStatement: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    for (const event of ['insert', 'delete', 'update'])
      await sql`drop trigger ${sql.raw(`files_${event}_tally_folders`)} on files`.execute(db);
    await sql`drop function tally_folders()`.execute(db);
    await sql`drop function add_to_folders(text, text, text, bigint, bigint)`.execute(db);
    // Every folder of a path, the root '' first, with the folder holding each (null for the root).
    await sql`create function folder_prefixes(file_path text) returns table(path text, parent text)
      language sql immutable as $$
        select ''::text, null::text
        union all
        select array_to_string(parts[1:i], '/') || '/',
               case when i = 1 then '' else array_to_string(parts[1:i - 1], '/') || '/' end
          from (select string_to_array(file_path, '/') as parts) as split,
               generate_series(1, cardinality(parts) - 1) as i
      $$`.execute(db);
    // One upsert per folder a statement touched, with its net change (a move within a subtree
    // nets to nothing for the folders both paths share); a folder left with no file goes. In
    // path order, the root '' first, as the row triggers went: one lock order for every writer.
    await sql`create function apply_folder_changes(changes jsonb) returns void language plpgsql as $$
      declare
        change record;
        remaining bigint;
        now_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
      begin
        for change in select * from jsonb_to_recordset(changes)
            as c(project_id text, owner_id text, path text, parent text, files bigint, bytes bigint) loop
          insert into folders as f (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
            values (change.project_id, change.owner_id, change.path, change.parent, change.files, change.bytes, now_ms)
            on conflict (project_id, owner_id, path) do update set file_count = f.file_count + excluded.file_count,
              total_bytes = f.total_bytes + excluded.total_bytes, updated_at = excluded.updated_at
            returning f.file_count into remaining;
          if remaining <= 0 then
            delete from folders as f
              where f.project_id = change.project_id and f.owner_id = change.owner_id and f.path = change.path;
          end if;
        end loop;
      end $$`.execute(db);
    for (const [event, changes] of Object.entries(folderChanges)) {
      await sql`create function ${sql.raw(`tally_folders_on_${event}`)}() returns trigger language plpgsql as ${sql.raw(`$$
        begin
          perform apply_folder_changes(${changes});
          return null;
        end $$`)}`.execute(db);
      const tables =
        event === 'insert'
          ? 'new table as new_files'
          : event === 'delete'
            ? 'old table as old_files'
            : 'old table as old_files new table as new_files';
      await sql`create trigger ${sql.raw(`files_${event}_tally_folders`)} after ${sql.raw(event)} on files
        referencing ${sql.raw(tables)} for each statement execute function ${sql.raw(`tally_folders_on_${event}`)}()`.execute(
        db,
      );
    }
  },
  async down() {
    // Forward only: the 0030 row triggers would have to be rebuilt as they were.
    throw new Error('0031_folder_tallies_per_statement cannot be undone');
  },
};

/** A statement's net change per folder, as the jsonb array apply_folder_changes takes. */
const sumPerFolder = (
  deltas: string,
) => `(select coalesce(jsonb_agg(per_folder order by per_folder.project_id, per_folder.owner_id, per_folder.path), '[]'::jsonb) from (
        select d.project_id, d.owner_id, p.path, p.parent, sum(d.files) as files, sum(d.bytes) as bytes
          from (${deltas}) as d cross join lateral folder_prefixes(d.file_path) as p
          group by d.project_id, d.owner_id, p.path, p.parent
          having sum(d.files) <> 0 or sum(d.bytes) <> 0) as per_folder)`;
const side = (table: string, sign: '' | '-') =>
  `select project_id, creator_id as owner_id, file_path, ${sign}1 as files, ${sign}${folderBytes(table)} as bytes from ${table}`;

/**
 * The change each statement trigger applies, from its transition tables (`new_files`,
 * `old_files`); migrations/one-row-triggers.ts keeps them for statements of many rows.
 */
export const folderChanges = {
  insert: sumPerFolder(side('new_files', '')),
  delete: sumPerFolder(side('old_files', '-')),
  // The new rows added and the old ones taken away, with no join of the two: a row whose
  // folder and bytes did not change nets to nothing (the `having` above), and the transition
  // tables carry no statistics, so a join of them was planned as a nested loop (rows × rows:
  // 50 s of a 10,000-file move).
  update: sumPerFolder(`${side('new_files', '')} union all ${side('old_files', '-')}`),
};
