import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The bytes a file adds to its folders (issue 36): what its record shows as
 * `meta.ContentLength`, so a verified file's content; an unverified one adds none yet (it is
 * counted as a file, as the listing shows it). `r` is `old` or `new` in a trigger.
 */
export function folderBytes(r: string): string {
  return `(case when ${r}.verified = 1 then coalesce(${r}.content_size_bytes, 0) else 0 end)`;
}

/** A file's folder: everything up to and including the last `/` of its path ('' at the root). */
const sqliteFolderOf = (path: string) => `rtrim(${path}, replace(${path}, '/', ''))`;

/**
 * Folders (issue 36): one row per `/`-ended prefix of an owner's file paths that holds a file
 * (the root '' included), with the count and bytes of its whole subtree, kept by triggers on
 * `files` in the transaction of each change, exactly as `storage_usage` is: every writer
 * (uploads, copies, moves, deletes, sweeps, project deletion, import, plain SQL) keeps them
 * exact without knowing, and no read ever scans a subtree. A row whose count falls to 0 goes.
 *
 * `files.folder_path` (the file's own folder, a generated column) with its index makes a
 * page of a folder's direct files an index range.
 */
export const folders: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('folders')
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'text', (col) => col.notNull())
      .addColumn('path', 'text', (col) => col.notNull())
      // The folder holding this one; null for the root ''.
      .addColumn('parent', 'text')
      .addColumn('file_count', 'bigint', (col) => col.notNull())
      .addColumn('total_bytes', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('folders_pk', ['project_id', 'owner_id', 'path'])
      .execute();
    // Subfolders are listed by name in code-point order on both dialects (as file paths are).
    await sql`create index folders_parent_index on folders
      (project_id, owner_id, parent, ${sql.raw(sqlite ? 'path' : 'path collate "C"')})`.execute(db);
    if (sqlite) {
      // A VIRTUAL column costs no rewrite and no write: SQLite computes it for the index only.
      await sql`alter table files add column folder_path text
        generated always as (${sql.raw(sqliteFolderOf('file_path'))}) virtual`.execute(db);
      await createSqlitePositions(db);
    } else {
      // PostgreSQL 15 has only STORED generated columns: this rewrites the table once.
      await sql`alter table files add column folder_path text
        generated always as (coalesce(substring(file_path from '^(.*/)'), '')) stored`.execute(db);
    }
    await sql`create index files_folder_index on files
      (project_id, creator_id, folder_path, ${sql.raw(sqlite ? 'file_path' : 'file_path collate "C"')})`.execute(
      db,
    );
    await backfillFolders(db, sqlite);
    if (sqlite) await createSqliteTriggers(db);
    else await createPostgresTriggers(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const event of ['insert', 'delete', 'move', 'resize'])
        await sql`drop trigger ${sql.raw(`files_${event}_tally_folders`)}`.execute(db);
      await db.schema.dropTable('folder_path_positions').execute();
    } else {
      await sql`drop function tally_folders() cascade`.execute(db);
      await sql`drop function add_to_folders(text, text, text, bigint, bigint)`.execute(db);
    }
    await db.schema.dropIndex('files_folder_index').execute();
    await db.schema.alterTable('files').dropColumn('folder_path').execute();
    await db.schema.dropTable('folders').execute();
  },
};

/**
 * SQLite triggers may not use WITH, so no recursive query can walk a path's prefixes: the
 * positions 1…1024 (a file path's most characters, validate-file-path.ts) joined with the
 * path find its slashes instead.
 */
async function createSqlitePositions(db: Kysely<unknown>): Promise<void> {
  await sql`create table folder_path_positions (n integer primary key)`.execute(db);
  await sql`insert into folder_path_positions (n)
    with recursive p(n) as (select 1 union all select n + 1 from p where n < 1024) select n from p`.execute(
    db,
  );
}

/** The folders holding `r` (a row, `old` or `new`): `path` and `parent`, the root first. */
function sqliteFoldersOf(r: string): string {
  const upTo = `substr(${r}.file_path, 1, n - 1)`;
  return `(select '' as path, null as parent
    union all
    select substr(${r}.file_path, 1, n), ${sqliteFolderOf(upTo)}
      from folder_path_positions where n < length(${r}.file_path) and substr(${r}.file_path, n, 1) = '/')`;
}

const sqliteNow = `cast(unixepoch('subsec') * 1000 as integer)`;

/** SQLite: adds `r` to every folder holding it (BEGIN IMMEDIATE already serializes writers). */
function sqliteAdd(r: string): string {
  return `insert into folders (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
    select ${r}.project_id, ${r}.creator_id, f.path, f.parent, 1, ${folderBytes(r)}, ${sqliteNow}
      from ${sqliteFoldersOf(r)} as f where true
    on conflict (project_id, owner_id, path) do update set file_count = file_count + 1,
      total_bytes = total_bytes + excluded.total_bytes, updated_at = excluded.updated_at;`;
}

/** SQLite: takes `r` out of every folder holding it; the folders it was the last file of go. */
function sqliteRemove(r: string): string {
  const holding = `project_id = ${r}.project_id and owner_id = ${r}.creator_id
    and path in (select path from ${sqliteFoldersOf(r)})`;
  return `delete from folders where ${holding} and file_count <= 1;
    update folders set file_count = file_count - 1, total_bytes = total_bytes - ${folderBytes(r)},
      updated_at = ${sqliteNow} where ${holding};`;
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const moved =
    'old.file_path <> new.file_path or old.creator_id <> new.creator_id or old.project_id <> new.project_id';
  const trigger = (name: string, when: string, body: string) =>
    sql`create trigger ${sql.raw(`files_${name}_tally_folders`)} ${sql.raw(when)} begin ${sql.raw(body)} end`.execute(
      db,
    );
  await trigger('insert', 'after insert on files', sqliteAdd('new'));
  await trigger('delete', 'after delete on files', sqliteRemove('old'));
  // Added to the new folders first, so a folder both paths share never falls to 0 on the way.
  await trigger(
    'move',
    `after update of file_path, creator_id, project_id on files when ${moved}`,
    `${sqliteAdd('new')} ${sqliteRemove('old')}`,
  );
  await trigger(
    'resize',
    `after update of verified, content_size_bytes on files
      when not (${moved}) and ${folderBytes('old')} <> ${folderBytes('new')}`,
    `update folders set total_bytes = total_bytes + ${folderBytes('new')} - ${folderBytes('old')},
      updated_at = ${sqliteNow}
      where project_id = new.project_id and owner_id = new.creator_id
        and path in (select path from ${sqliteFoldersOf('new')});`,
  );
}

/**
 * PostgreSQL: one function walks a path's folders, the root first, so writers of one owner
 * take its folder rows in one order (no deadlock). The triggers are named to fire after
 * storage_usage's (PostgreSQL fires them in name order), which first locks the project's
 * usage row: writers that change usage queue there before they touch any folder.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function add_to_folders(in_project text, in_owner text, in_file_path text,
      delta_files bigint, delta_bytes bigint)
    returns void language plpgsql as $$
    declare
      prefix text := '';
      prefix_parent text := null;
      slash int;
      remaining bigint;
      now_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
    begin
      loop
        if delta_files >= 0 then
          insert into folders as f (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
            values (in_project, in_owner, prefix, prefix_parent, delta_files, delta_bytes, now_ms)
            on conflict (project_id, owner_id, path) do update set file_count = f.file_count + excluded.file_count,
              total_bytes = f.total_bytes + excluded.total_bytes, updated_at = excluded.updated_at;
        else
          update folders as f set file_count = f.file_count + delta_files,
              total_bytes = f.total_bytes + delta_bytes, updated_at = now_ms
            where f.project_id = in_project and f.owner_id = in_owner and f.path = prefix
            returning f.file_count into remaining;
          if remaining <= 0 then
            delete from folders as f where f.project_id = in_project and f.owner_id = in_owner and f.path = prefix;
          end if;
        end if;
        slash := strpos(substr(in_file_path, length(prefix) + 1), '/');
        exit when slash = 0;
        prefix_parent := prefix;
        prefix := left(in_file_path, length(prefix) + slash);
      end loop;
    end $$`.execute(db);
  await sql`create function tally_folders() returns trigger language plpgsql as ${sql.raw(`$$
    begin
      if tg_op = 'UPDATE' and old.project_id = new.project_id and old.creator_id = new.creator_id
          and old.file_path = new.file_path then
        perform add_to_folders(new.project_id, new.creator_id, new.file_path, 0,
          ${folderBytes('new')} - ${folderBytes('old')});
        return null;
      end if;
      -- Added to the new folders first, so a folder both paths share never falls to 0 on the way.
      if tg_op <> 'DELETE' then
        perform add_to_folders(new.project_id, new.creator_id, new.file_path, 1, ${folderBytes('new')});
      end if;
      if tg_op <> 'INSERT' then
        perform add_to_folders(old.project_id, old.creator_id, old.file_path, -1, -${folderBytes('old')});
      end if;
      return null;
    end $$`)}`.execute(db);
  await sql`create trigger files_insert_tally_folders after insert on files
    for each row execute function tally_folders()`.execute(db);
  await sql`create trigger files_delete_tally_folders after delete on files
    for each row execute function tally_folders()`.execute(db);
  await sql`create trigger files_update_tally_folders
    after update of file_path, creator_id, project_id, verified, content_size_bytes on files
    for each row when (old.file_path <> new.file_path or old.creator_id <> new.creator_id
      or old.project_id <> new.project_id or ${sql.raw(folderBytes('old'))} <> ${sql.raw(folderBytes('new'))})
    execute function tally_folders()`.execute(db);
}

/** Existing files: the folders they already make, counted once from the table. */
async function backfillFolders(db: Kysely<unknown>, sqlite: boolean): Promise<void> {
  const positions = sqlite ? 'folder_path_positions' : 'generate_series(1, 1024) as positions(n)';
  const upTo = 'substr(file_path, 1, n - 1)';
  const now = sqlite ? sqliteNow : '(extract(epoch from clock_timestamp()) * 1000)::bigint';
  await sql`insert into folders (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
    select project_id, creator_id, path, min(parent), count(*), sum(bytes), ${sql.raw(now)} from (
      select project_id, creator_id, '' as path, cast(null as text) as parent, ${sql.raw(folderBytes('files'))} as bytes from files
      union all
      select project_id, creator_id, substr(file_path, 1, n), rtrim(${sql.raw(upTo)}, replace(${sql.raw(upTo)}, '/', '')),
          ${sql.raw(folderBytes('files'))}
        from files join ${sql.raw(positions)} on n < length(file_path) and substr(file_path, n, 1) = '/'
    ) as held group by project_id, creator_id, path`.execute(db);
}
