import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { mirroredColumnTypes, mirroredFileColumnsOf0034 } from './trash-mirror-columns.ts';

/**
 * Versions, trash and holds (issue 38).
 * - `files` keeps its current version's columns (the hot path reads one row, as before) and
 *   gains `version_id` (null: the file's first version, whose id is the file's), who made the
 *   current version and when, and a legal hold (reason, when, by whom).
 * - `file_versions`: the non-current versions, written in the commit that makes another one
 *   current. `blob_file_id` is the storage key's file id of its bytes (always set). `counted`
 *   is 0 while its file is in the trash: trashed bytes do not count against quotas.
 * - `version_uploads`: a new version on its way (requested, maybe PUT, not verified), its bytes
 *   under a storage key of its own (`<project>/<upload id>`), which the version keeps.
 * - `trashed_files` / `trashed_file_acl`: a trashed file's row and ACL, moved out of `files`, so
 *   nothing that reads `files` (listings, folders, shares, search, quotas) ever sees one.
 *   `held_bytes` is what it keeps in the store (its content and versions): the trash's size.
 * - `storage_usage.trash_bytes`: each owner's trash, kept by triggers as the rest of the row.
 * Triggers keep the rest exact whoever writes: versions count against quotas while their file
 * is not trashed; a file's versions and pending uploads go with it when it leaves `files`
 * without going to the trash, and with its trashed row when that is purged.
 */
export const versionsAndTrash: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    for (const [column, type] of [
      ['version_id', 'text'],
      ['version_created_at', 'bigint'],
      ['version_created_by', 'text'],
      ['hold_reason', 'text'],
      ['held_at', 'bigint'],
      ['held_by', 'text'],
    ] as const)
      await db.schema.alterTable('files').addColumn(column, type).execute();

    await db.schema
      .createTable('file_versions')
      .addColumn('file_id', 'text', (col) => col.notNull())
      .addColumn('version_id', 'text', (col) => col.notNull())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('creator_id', 'text', (col) => col.notNull())
      .addColumn('blob_file_id', 'text', (col) => col.notNull())
      .addColumn('blob_version', 'text', (col) => col.notNull())
      .addColumn('etag', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint', (col) => col.notNull())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('content_last_modified', 'bigint', (col) => col.notNull())
      .addColumn('content_sha256', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.notNull())
      .addColumn('noncurrent_at', 'bigint', (col) => col.notNull())
      .addColumn('counted', 'integer', (col) => col.notNull().defaultTo(1))
      .addPrimaryKeyConstraint('file_versions_pk', ['file_id', 'version_id'])
      .execute();
    // Whether any version still needs some bytes (deletes, coffer gc): one probe.
    await sql`create index file_versions_blob on file_versions (blob_file_id, blob_version)`.execute(db);
    // The age sweep: a project's versions past its retention, oldest first.
    await sql`create index file_versions_age on file_versions (project_id, noncurrent_at)`.execute(db);

    await db.schema
      .createTable('version_uploads')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('file_id', 'text', (col) => col.notNull())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('creator_id', 'text', (col) => col.notNull())
      .addColumn('requested_by', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('expected_size_bytes', 'bigint')
      .addColumn('expected_content_type', 'text')
      .addColumn('expected_sha256', 'text')
      .addColumn('upload_blob_version', 'text')
      .addColumn('upload_etag', 'text')
      .addColumn('upload_size_bytes', 'bigint')
      .addColumn('upload_content_type', 'text')
      .addColumn('upload_last_modified', 'bigint')
      .addColumn('upload_sha256', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await sql`create index version_uploads_file on version_uploads (file_id)`.execute(db);
    await sql`create index version_uploads_expiry on version_uploads (expires_at)`.execute(db);

    await createTrashTables(db, sqlite);
    await addTrashBytes(db);
    if (sqlite) await createSqliteTriggers(db);
    else await createPostgresTriggers(db);
  },
  async down() {
    throw new Error('0034_versions_and_trash cannot be undone');
  },
};

/** storage_usage.trash_bytes (exported: a test that rebuilds storage_usage adds it back). */
export async function addTrashBytes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('storage_usage')
    .addColumn('trash_bytes', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
}

async function createTrashTables(db: Kysely<unknown>, sqlite: boolean): Promise<void> {
  let trashed = db.schema
    .createTable('trashed_files')
    .addColumn('trashed_at', 'bigint', (col) => col.notNull())
    .addColumn('trashed_by', 'text', (col) => col.notNull())
    .addColumn('held_bytes', 'bigint', (col) => col.notNull());
  for (const column of mirroredFileColumnsOf0034) {
    trashed = trashed.addColumn(column, mirroredColumnTypes[column], (col) => {
      if (column === 'id') return col.primaryKey();
      if (column === 'project_id') return col.notNull().references('projects.id');
      // The path keeps code-point order on both dialects, as files.file_path's index.
      if (column === 'file_path' && !sqlite) return col.notNull().modifyEnd(sql`collate "C"`);
      return col;
    });
  }
  await trashed.execute();
  // A user's trash, newest first (the trash page, the cap's oldest-first purge reads it backwards).
  await sql`create index trashed_files_owner on trashed_files (project_id, creator_id, trashed_at, id)`.execute(
    db,
  );
  // The retention sweep: a project's oldest trash first.
  await sql`create index trashed_files_age on trashed_files (project_id, trashed_at)`.execute(db);
  // Trashed copies keep their source's bytes (coffer gc, deletes).
  await sql`create index trashed_files_blob on trashed_files (blob_file_id, blob_version)
    where blob_file_id is not null`.execute(db);

  await db.schema
    .createTable('trashed_file_acl')
    .addColumn('file_id', 'text', (col) => col.notNull().references('trashed_files.id').onDelete('cascade'))
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('identifier', 'text', (col) => col.notNull())
    .addColumn('position', 'bigint', (col) => col.notNull())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('file_created_at', 'bigint', (col) => col.notNull())
    .addColumn('shared_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('trashed_file_acl_pk', ['file_id', 'scope', 'identifier'])
    .execute();
}

/** What a row of each table counts in its owner's storage_usage bytes (`r`: old or new). */
const versionBytes = (r: string) => `(case when ${r}.counted = 1 then ${r}.size_bytes else 0 end)`;
const pendingBytes = (r: string) => `coalesce(${r}.upload_size_bytes, ${r}.expected_size_bytes, 0)`;

/** SQLite: an upsert of the project's row and the owner's, adding `bytes` to `column`. */
function sqliteAdd(r: string, column: 'bytes' | 'trash_bytes', bytes: string): string {
  const upsert = (
    owner: string,
  ) => `insert into storage_usage (project_id, user_id, files, bytes, trash_bytes)
      values (${r}.project_id, ${owner}, 0, ${column === 'bytes' ? bytes : 0}, ${column === 'trash_bytes' ? bytes : 0})
      on conflict (project_id, user_id) do update set ${column} = ${column} + (${bytes});`;
  return `${upsert("''")}\n${upsert(`${r}.creator_id`)}`;
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const trigger = (name: string, when: string, body: string) =>
    sql`create trigger ${sql.raw(name)} ${sql.raw(when)} begin ${sql.raw(body)} end`.execute(db);
  for (const [table, bytes, column] of [
    ['file_versions', versionBytes, 'bytes'],
    ['version_uploads', pendingBytes, 'bytes'],
    ['trashed_files', (r: string) => `${r}.held_bytes`, 'trash_bytes'],
  ] as const) {
    await trigger(
      `${table}_insert_usage`,
      `after insert on ${table}`,
      sqliteAdd('new', column, bytes('new')),
    );
    await trigger(
      `${table}_delete_usage`,
      `after delete on ${table}`,
      sqliteAdd('old', column, `-${bytes('old')}`),
    );
    await trigger(
      `${table}_update_usage`,
      `after update on ${table} when ${bytes('old')} <> ${bytes('new')}`,
      `${sqliteAdd('old', column, `-${bytes('old')}`)} ${sqliteAdd('new', column, bytes('new'))}`,
    );
  }
  // A file leaving `files` takes its pending uploads, and its versions unless it went to the trash.
  await trigger(
    'files_delete_versions',
    'after delete on files',
    `delete from version_uploads where file_id = old.id;
     delete from file_versions where file_id = old.id
       and not exists (select 1 from trashed_files where id = old.id);`,
  );
  // A purged trashed file takes its versions, unless it went back to `files` (a restore).
  await trigger(
    'trashed_files_delete_versions',
    'after delete on trashed_files',
    `delete from file_versions where file_id = old.id
       and not exists (select 1 from files where id = old.id);`,
  );
}

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  // The project's row first, then the owner's: storage_usage's one lock order (migrations/storage-usage.ts).
  await sql`create function add_usage_bytes(project text, owner text, delta_bytes bigint, delta_trash bigint)
    returns void language plpgsql as $$
    begin
      insert into storage_usage as u (project_id, user_id, files, bytes, trash_bytes)
        values (project, '', 0, delta_bytes, delta_trash)
        on conflict (project_id, user_id) do update
        set bytes = u.bytes + excluded.bytes, trash_bytes = u.trash_bytes + excluded.trash_bytes;
      insert into storage_usage as u (project_id, user_id, files, bytes, trash_bytes)
        values (project, owner, 0, delta_bytes, delta_trash)
        on conflict (project_id, user_id) do update
        set bytes = u.bytes + excluded.bytes, trash_bytes = u.trash_bytes + excluded.trash_bytes;
    end $$`.execute(db);
  for (const [table, bytes, column] of [
    ['file_versions', versionBytes, 'bytes'],
    ['version_uploads', pendingBytes, 'bytes'],
    ['trashed_files', (r: string) => `${r}.held_bytes`, 'trash_bytes'],
  ] as const) {
    const add = (r: string, sign: '' | '-') =>
      column === 'bytes'
        ? `perform add_usage_bytes(${r}.project_id, ${r}.creator_id, ${sign}${bytes(r)}, 0);`
        : `perform add_usage_bytes(${r}.project_id, ${r}.creator_id, 0, ${sign}${bytes(r)});`;
    await sql`create function ${sql.raw(`count_${table}_usage`)}() returns trigger language plpgsql as ${sql.raw(`$$
      begin
        if tg_op <> 'INSERT' then ${add('old', '-')} end if;
        if tg_op <> 'DELETE' then ${add('new', '')} end if;
        return null;
      end $$`)}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_usage`)} after insert or delete or update on ${sql.raw(table)}
      for each row execute function ${sql.raw(`count_${table}_usage`)}()`.execute(db);
  }
  await sql`create function drop_versions_of_deleted_file() returns trigger language plpgsql as $$
    begin
      delete from version_uploads where file_id = old.id;
      delete from file_versions where file_id = old.id
        and not exists (select 1 from trashed_files where id = old.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger files_delete_versions after delete on files
    for each row execute function drop_versions_of_deleted_file()`.execute(db);
  await sql`create function drop_versions_of_purged_file() returns trigger language plpgsql as $$
    begin
      delete from file_versions where file_id = old.id
        and not exists (select 1 from files where id = old.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger trashed_files_delete_versions after delete on trashed_files
    for each row execute function drop_versions_of_purged_file()`.execute(db);
}
