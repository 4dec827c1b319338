import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What a file row counts against its quotas (issue 10, item 10): a verified file its content;
 * an unverified one its pending upload, else the length its request declared (a reservation),
 * else nothing. `r` is `old` or `new` in a trigger, `files` in the initial count.
 */
export function countedBytes(r: string): string {
  return `(case when ${r}.verified = 1 then coalesce(${r}.content_size_bytes, 0)
    else coalesce(${r}.upload_size_bytes, ${r}.expected_size_bytes, 0) end)`;
}

/** The columns whose change can change what a row counts. */
const countedColumns =
  'verified, content_size_bytes, upload_size_bytes, expected_size_bytes, project_id, creator_id';

/**
 * Files and bytes held per user and per project (user_id '' is the project's total), kept by
 * triggers on `files` in the same transaction as the rows they count: every writer (uploads,
 * verify, delete, copy, the sweeper, plain SQL) keeps them exact, a crash loses nothing, and no
 * request ever scans a project to learn its usage. Every change takes the project's row before
 * the user's (PostgreSQL row locks), so writers of one project queue in one order and cannot
 * deadlock; quota checks read the rows after the write, under those locks
 * (repositories/storage-usage-check.ts).
 */
export const storageUsage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('storage_usage')
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('files', 'bigint', (col) => col.notNull())
      .addColumn('bytes', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('storage_usage_pk', ['project_id', 'user_id'])
      .execute();
    // Existing data: the usage it already holds.
    for (const owner of ["''", 'creator_id']) {
      await sql`insert into storage_usage (project_id, user_id, files, bytes)
        select project_id, ${sql.raw(owner)}, count(*), coalesce(sum(${sql.raw(countedBytes('files'))}), 0)
        from files group by project_id${sql.raw(owner === "''" ? '' : ', creator_id')}`.execute(db);
    }
    if (db.getExecutor().adapter instanceof SqliteAdapter) await createSqliteTriggers(db);
    else await createPostgresTriggers(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger ${sql.raw(`files_${event}_storage_usage`)}`.execute(db);
      // 0048 (upload-write-path.ts) split the insert trigger: its second half goes too.
      await sql`drop trigger if exists files_insert_storage_usage_files`.execute(db);
    } else {
      await sql`drop function count_storage_usage() cascade`.execute(db);
      await sql`drop function add_storage_usage(text, text, bigint, bigint)`.execute(db);
    }
    await db.schema.dropTable('storage_usage').execute();
  },
};

/** SQLite: BEGIN IMMEDIATE already serializes writers; an upsert per counted row. */
export function sqliteAdd(row: 'old' | 'new', sign: '+' | '-'): string {
  const upsert = (owner: string) => `insert into storage_usage (project_id, user_id, files, bytes)
      values (${row}.project_id, ${owner}, ${sign}1, ${sign}${countedBytes(row)})
      on conflict (project_id, user_id) do update
      set files = files + excluded.files, bytes = bytes + excluded.bytes;`;
  return `${upsert("''")}\n${upsert(`${row}.creator_id`)}`;
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger files_insert_storage_usage after insert on files
    begin ${sql.raw(sqliteAdd('new', '+'))} end`.execute(db);
  await sql`create trigger files_delete_storage_usage after delete on files
    begin ${sql.raw(sqliteAdd('old', '-'))} end`.execute(db);
  await sql`create trigger files_update_storage_usage after update of ${sql.raw(countedColumns)} on files
    when ${sql.raw(countedBytes('old'))} <> ${sql.raw(countedBytes('new'))}
      or old.project_id <> new.project_id or old.creator_id <> new.creator_id
    begin ${sql.raw(sqliteAdd('old', '-'))} ${sql.raw(sqliteAdd('new', '+'))} end`.execute(db);
}

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  // The project's row first, then the user's: one lock order for every writer (no deadlock).
  await sql`create function add_storage_usage(project text, owner text, delta_files bigint, delta_bytes bigint)
    returns void language plpgsql as $$
    begin
      insert into storage_usage as u (project_id, user_id, files, bytes) values (project, '', delta_files, delta_bytes)
        on conflict (project_id, user_id) do update set files = u.files + excluded.files, bytes = u.bytes + excluded.bytes;
      insert into storage_usage as u (project_id, user_id, files, bytes) values (project, owner, delta_files, delta_bytes)
        on conflict (project_id, user_id) do update set files = u.files + excluded.files, bytes = u.bytes + excluded.bytes;
    end $$`.execute(db);
  await sql`create function count_storage_usage() returns trigger language plpgsql as ${sql.raw(`$$
    begin
      if tg_op <> 'INSERT' then
        perform add_storage_usage(old.project_id, old.creator_id, -1, -${countedBytes('old')});
      end if;
      if tg_op <> 'DELETE' then
        perform add_storage_usage(new.project_id, new.creator_id, 1, ${countedBytes('new')});
      end if;
      return null;
    end $$`)}`.execute(db);
  await sql`create trigger files_insert_storage_usage after insert on files
    for each row execute function count_storage_usage()`.execute(db);
  await sql`create trigger files_delete_storage_usage after delete on files
    for each row execute function count_storage_usage()`.execute(db);
  await sql`create trigger files_update_storage_usage after update of ${sql.raw(countedColumns)} on files
    for each row when (${sql.raw(countedBytes('old'))} <> ${sql.raw(countedBytes('new'))}
      or old.project_id <> new.project_id or old.creator_id <> new.creator_id)
    execute function count_storage_usage()`.execute(db);
}
