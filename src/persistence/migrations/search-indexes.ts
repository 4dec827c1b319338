import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A file's name (its path's last segment) as an SQL expression over a `files` row, written the
 * same on both dialects: the name indexes below are on this exact text, and a query must spell
 * it the same for a planner to use them (repositories/files/search-terms.ts).
 */
export const fileNameSql = 'substr(file_path, length(folder_path) + 1)';

/**
 * Search (issue 40): the indexes each filter and sort of GET /api/v1/file walks, so a page
 * costs a bounded number of index entries (repositories/files/search-files.ts):
 * - name substrings: SQLite, an FTS5 trigram table over `file_names` (one row per file, its
 *   name, kept by triggers on files; an integer key of its own, as files' rowids may change on
 *   VACUUM); PostgreSQL, a pg_trgm GIN index on the lowered name;
 * - content type, size and name orders, project-wide (admins) and per creator (own files);
 * - customData: `file_custom_values`, one row per top-level scalar (string, number, boolean)
 *   of a file's customData, kept by triggers on files in the statement's transaction, so every
 *   writer (create, PATCH, copy, trash and restore, import, plain SQL) keeps it exact.
 */
export const searchIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const name = sqlite ? fileNameSql : `(${fileNameSql}) collate "C"`;
    await db.schema
      .createTable('file_custom_values')
      .addColumn('file_id', 'text', (col) => col.notNull())
      .addColumn('key', 'text', (col) => col.notNull())
      .addColumn('project_id', 'text', (col) => col.notNull())
      // 's' string, 'b' boolean ('true'/'false' in value_text), 'n' number (value_number).
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('value_text', 'text')
      .addColumn('value_number', 'double precision')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('file_custom_values_pk', ['file_id', 'key'])
      .execute();
    await sql`create index file_custom_values_match on file_custom_values
      (project_id, key, kind, value_text, value_number)`.execute(db);
    await sql`create index files_project_type on files (project_id, content_type, created_at, id)`.execute(
      db,
    );
    await sql`create index files_project_size on files (project_id, content_size_bytes, id)`.execute(db);
    await sql`create index files_creator_size on files (project_id, creator_id, content_size_bytes, id)`.execute(
      db,
    );
    await sql`create index files_project_name on files (project_id, ${sql.raw(name)}, id)`.execute(db);
    await sql`create index files_creator_name on files (project_id, creator_id, ${sql.raw(name)}, id)`.execute(
      db,
    );
    if (sqlite) await createSqliteSearch(db);
    else await createPostgresSearch(db);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    if (sqlite) {
      for (const trigger of [
        'files_search_insert',
        'files_search_delete',
        'files_search_path',
        'files_search_custom',
        'file_names_insert',
        'file_names_delete',
      ])
        await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      await sql`drop table file_names_fts`.execute(db);
      await db.schema.dropTable('file_names').execute();
    } else {
      await sql`drop function search_keep_custom_values() cascade`.execute(db);
      await db.schema.dropIndex('files_name_trigrams').execute();
    }
    for (const index of [
      'files_creator_name',
      'files_project_name',
      'files_creator_size',
      'files_project_size',
      'files_project_type',
    ])
      await db.schema.dropIndex(index).execute();
    await db.schema.dropTable('file_custom_values').execute();
  },
};

/** json_each's scalars as file_custom_values rows of the file `row` ('new' in a trigger). */
const sqliteCustomValues = (row: string) => `
  insert into file_custom_values (file_id, key, project_id, kind, value_text, value_number, created_at)
  select ${row}.id, j.key, ${row}.project_id,
    case j.type when 'text' then 's' when 'true' then 'b' when 'false' then 'b' else 'n' end,
    case j.type when 'text' then j.value when 'true' then 'true' when 'false' then 'false' end,
    case when j.type in ('integer', 'real') then j.value end,
    ${row}.created_at
  from json_each(${row}.custom_data) as j
  where json_type(${row}.custom_data) = 'object' and j.type in ('text', 'true', 'false', 'integer', 'real');`;

/** The name of the file `row`: as fileNameSql, spelled without the generated column. */
const sqliteNameOf = (row: string) =>
  `substr(${row}.file_path, length(rtrim(${row}.file_path, replace(${row}.file_path, '/', ''))) + 1)`;

async function createSqliteSearch(db: Kysely<unknown>): Promise<void> {
  await sql`create table file_names (
    rowid integer primary key, file_id text not null unique, name text not null)`.execute(db);
  // External content: the trigram index holds no second copy of the names.
  await sql`create virtual table file_names_fts using fts5(
    name, content = 'file_names', content_rowid = 'rowid', tokenize = 'trigram')`.execute(db);
  await sql`create trigger file_names_insert after insert on file_names begin
    insert into file_names_fts (rowid, name) values (new.rowid, new.name); end`.execute(db);
  await sql`create trigger file_names_delete after delete on file_names begin
    insert into file_names_fts (file_names_fts, rowid, name) values ('delete', old.rowid, old.name); end`.execute(
    db,
  );
  await sql
    .raw(`create trigger files_search_insert after insert on files begin
    insert into file_names (file_id, name) values (new.id, ${sqliteNameOf('new')});
    ${sqliteCustomValues('new')}
    end`)
    .execute(db);
  await sql`create trigger files_search_delete after delete on files begin
    delete from file_names where file_id = old.id;
    delete from file_custom_values where file_id = old.id; end`.execute(db);
  // A move renames: the name's row is replaced (so its trigram entry is), never edited in place.
  await sql
    .raw(`create trigger files_search_path after update of file_path on files
    when old.file_path <> new.file_path begin
    delete from file_names where file_id = old.id;
    insert into file_names (file_id, name) values (new.id, ${sqliteNameOf('new')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger files_search_custom after update of custom_data on files
    when old.custom_data is not new.custom_data begin
    delete from file_custom_values where file_id = old.id;
    ${sqliteCustomValues('new')}
    end`)
    .execute(db);
  await sql
    .raw(`insert into file_names (file_id, name) select id, ${sqliteNameOf('files')} from files`)
    .execute(db);
  await sql
    .raw(
      sqliteCustomValues('files').replace(
        'from json_each(files.custom_data)',
        'from files, json_each(files.custom_data)',
      ),
    )
    .execute(db);
}

async function createPostgresSearch(db: Kysely<unknown>): Promise<void> {
  // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql
    .raw(`create index files_name_trigrams on files using gin (lower(${fileNameSql}) gin_trgm_ops)`)
    .execute(db);
  const values = (row: string) => `
    insert into file_custom_values (file_id, key, project_id, kind, value_text, value_number, created_at)
    select ${row}.id, j.key, ${row}.project_id,
      case jsonb_typeof(j.value) when 'string' then 's' when 'boolean' then 'b' else 'n' end,
      case when jsonb_typeof(j.value) in ('string', 'boolean') then j.value #>> '{}' end,
      case when jsonb_typeof(j.value) = 'number' then (j.value #>> '{}')::double precision end,
      ${row}.created_at
    from jsonb_each(case when jsonb_typeof(${row}.custom_data::jsonb) = 'object'
      then ${row}.custom_data::jsonb else '{}'::jsonb end) as j
    where jsonb_typeof(j.value) in ('string', 'boolean', 'number')`;
  await sql
    .raw(`create function search_keep_custom_values() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        delete from file_custom_values where file_id = old.id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.custom_data is not null then
        ${values('new')};
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql`create trigger files_search_custom after insert or delete on files
    for each row execute function search_keep_custom_values()`.execute(db);
  await sql`create trigger files_search_custom_update after update of custom_data on files
    for each row when (old.custom_data is distinct from new.custom_data)
    execute function search_keep_custom_values()`.execute(db);
  await sql
    .raw(
      `${values('files').replace(/from jsonb_each/, 'from files, jsonb_each')} and files.custom_data is not null`,
    )
    .execute(db);
}
