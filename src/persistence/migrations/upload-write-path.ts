import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { skipCreatedFile, touchFileOfAcl } from './create-file-function.ts';
import { countedBytes, sqliteAdd } from './storage-usage.ts';

/**
 * The upload request's writes, made smaller (issue 44 item 2):
 *
 * 1. The creator's ACL entry no longer rewrites the row inserted just before it. An ACL insert
 *    moved `files.row_stamp` (migrations/file-row-stamp.ts) so that a process keeping the file's
 *    record sees the new entry (repositories/files/file-view-cache.ts); for the creator's own
 *    entry, inserted right after its file, that was a second write of a ~50-column row nobody
 *    could have read (SQLite: a third of the ACL insert's CPU). The entry skipped is exactly
 *    the position-0 `user` entry naming the file's creator, while the file's stamp is still 0:
 *    - stamp 0 means no change since the row's insert (every update and every ACL delete or
 *      update moves it: those triggers are unchanged), and every writer inserts a file with its
 *      creator's entry in the same transaction (create, copy, import; a restore inserts the
 *      trashed stamp + 1, so it bumps as before): no reader held the row before this entry;
 *    - the creator's entry can come again only after a delete of it, which moved the stamp;
 *    - any other entry (a share, a role) moves the stamp as before: grants and revocations are
 *      seen at once. Timestamps play no part.
 *    PostgreSQL's touch_file_of_acl skips the same entry (its update made a new row version).
 *
 * 2. SQLite: the content-type and size indexes of search (migrations/search-indexes.ts) hold only
 *    files with a content type / a size. An upload request's row has neither (its upload is not
 *    verified yet), so it no longer takes an entry in three indexes, and the verify no longer
 *    deletes three null entries. Every search statement that reads them says why the file
 *    qualifies: a filter on the column (`content_type = ?`, `content_size_bytes >= ?`), which
 *    SQLite takes as implying `is not null`, or, for a walk in size order, the
 *    `content_size_bytes is not null` term (search-walk.ts: a file without a size is never a
 *    hit there). Same names: the `indexed by` of searches names them.
 *    PostgreSQL keeps its full indexes: its planner needs no name, and a rebuild there would
 *    lock `files` against writes for as long as it takes.
 *
 * 3. SQLite: a new file that counts no bytes (an upload request that declared no length) adds
 *    one to its usage rows' `files` and leaves `bytes` unassigned: SQLite rewrites an index
 *    entry of every column an upsert assigns, changed or not, so `+ 0` cost two deletes and two
 *    inserts in `storage_usage_bytes_idx`. The same counts as before (migrations/storage-usage.ts).
 */
export const uploadWritePath: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`drop trigger file_acl_insert_row_stamp`.execute(db);
      await sql`create trigger file_acl_insert_row_stamp after insert on file_acl
        when not (${sql.raw(creatorEntryOfNewFile)})
        begin update files set row_stamp = row_stamp + 1 where id = new.file_id; end`.execute(db);
      for (const [index, definition] of partialIndexes) {
        await sql.raw(`drop index ${index}`).execute(db);
        await sql.raw(`create index ${index} on files ${definition}`).execute(db);
      }
      await sql`drop trigger files_insert_storage_usage`.execute(db);
      await sql`create trigger files_insert_storage_usage after insert on files
        when ${sql.raw(countedBytes('new'))} <> 0
        begin ${sql.raw(sqliteAdd('new', '+'))} end`.execute(db);
      await sql`create trigger files_insert_storage_usage_files after insert on files
        when ${sql.raw(countedBytes('new'))} = 0
        begin ${sql.raw(addOneFile("''"))} ${sql.raw(addOneFile('new.creator_id'))} end`.execute(db);
      return;
    }
    await sql
      .raw(`create or replace function touch_file_of_acl() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if ${creatorEntryOfNewFile} then
            return null;
          end if;
        end if;
        update files set row_stamp = row_stamp
          where id = (case when tg_op = 'DELETE' then old.file_id else new.file_id end);
        return null;
      end $$`)
      .execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`drop trigger file_acl_insert_row_stamp`.execute(db);
      await sql`create trigger file_acl_insert_row_stamp after insert on file_acl
        begin update files set row_stamp = row_stamp + 1 where id = new.file_id; end`.execute(db);
      for (const [index, definition] of partialIndexes) {
        await sql.raw(`drop index ${index}`).execute(db);
        await sql.raw(`create index ${index} on files ${definition.replace(/ where .*$/, '')}`).execute(db);
      }
      await sql`drop trigger files_insert_storage_usage_files`.execute(db);
      await sql`drop trigger files_insert_storage_usage`.execute(db);
      await sql`create trigger files_insert_storage_usage after insert on files
        begin ${sql.raw(sqliteAdd('new', '+'))} end`.execute(db);
      return;
    }
    // Back to 0047's trigger, which skips only the entry its procedure inserts.
    await touchFileOfAcl(db, skipCreatedFile);
  },
};

/**
 * The new ACL row (`new`) is its file's creator entry, inserted with the file: position 0, the
 * creator's user entry, and the file's stamp still at its insert's 0 (see 1. above).
 */
const creatorEntryOfNewFile = `new.position = 0 and new.scope = 'user'
  and exists (select 1 from files where id = new.file_id and creator_id = new.identifier and row_stamp = 0)`;

/** SQLite: one more file in the usage row of `owner` (`''`: the project's), its bytes untouched. */
const addOneFile = (owner: string) => `insert into storage_usage (project_id, user_id, files, bytes)
      values (new.project_id, ${owner}, 1, 0)
      on conflict (project_id, user_id) do update set files = files + 1;`;

/** SQLite: search's indexes on columns an unverified file leaves null, each with its condition. */
const partialIndexes = [
  ['files_project_type', '(project_id, content_type, created_at, id) where content_type is not null'],
  ['files_project_size', '(project_id, content_size_bytes, id) where content_size_bytes is not null'],
  [
    'files_creator_size',
    '(project_id, creator_id, content_size_bytes, id) where content_size_bytes is not null',
  ],
] as const;
