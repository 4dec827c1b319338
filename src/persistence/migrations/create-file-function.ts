import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The SQLSTATE the procedure raises when the new file leaves a counter over its quota. */
export const quotaExceededState = 'QU001';

/** Set (for its transaction) to the id of the file the procedure just inserted. */
const createdFileSetting = 'coffer.created_file_id';

/**
 * PostgreSQL: an upload request's record in one round trip (issue 44 item 5). The request ran
 * six statements, each a round trip to a backend (`begin`, the file, its creator's ACL row, the
 * usage read, the folder-share read, `commit`): ~2.6 ms of CPU against SQLite's ~0.45 ms, half
 * of it in PostgreSQL's backends waking up for each. `create_file_at_once`, called in
 * autocommit, does what that transaction did for a free path, in one implicit transaction:
 * - claims the path (`on conflict do nothing`); a taken path (an abandoned upload to replace, or
 *   a live file) answers `shares` null and writes nothing: the caller runs the multi-statement
 *   transaction then (repositories/files/create-file.ts);
 * - inserts the creator's ACL entry (position 0, the listing keys of migration 0006), without
 *   the row-stamp touch of the new file's row (touchFileOfAcl below);
 * - when a quota is set, reads the usage rows after the inserts, as storage-usage-check.ts does:
 *   each statement of a volatile PL/pgSQL body takes a fresh snapshot (read committed), and
 *   the usage triggers hold both rows locked until the commit, so check-and-commit stays one
 *   step. A counter the new file grew over its limit raises `QU001` with the usage in its
 *   detail: the whole call rolls back, and the caller words the error (QUOTA_EXCEEDED) as the
 *   domain does;
 * - answers the folder shares of the path's folders (`in_folders`, the root first), ancestors
 *   first, as `[{path, scope, identifier}]` (issue 36).
 * A procedure, not a function: `call` counts as a write for the process's write watch
 * (watched-dialect.ts), a `select` of a function would be taken for a read.
 *
 * The columns are those of an upload request's row (toNewFileRow); the others keep their
 * defaults (null, or 0 for the counters). A release that changes what a new row holds replaces
 * the procedure in a migration of its own. SQLite: nothing (its upload requests share a group
 * commit, where round trips cost nothing).
 *
 * Expand: older nodes never call it, and it changes no table.
 */
export const createFileFunction: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`create procedure create_file_at_once(
        in_id text, in_project text, in_creator text, in_path text, in_scope text,
        in_upload_expires_at bigint, in_created_at bigint, in_custom_data text,
        in_expected_size_bytes bigint, in_expected_content_type text, in_expected_sha256 text,
        in_folders text[],
        in_user_quota_files bigint, in_user_quota_bytes bigint,
        in_project_quota_files bigint, in_project_quota_bytes bigint,
        inout shares jsonb)
      language plpgsql as ${sql.raw(`$$
      declare
        grew_bytes boolean := coalesce(in_expected_size_bytes, 0) > 0;
        user_files bigint;
        user_bytes bigint;
        project_files bigint;
        project_bytes bigint;
      begin
        shares := null;
        insert into files (id, project_id, creator_id, file_path, permission_scope, verified,
            upload_expires_at, created_at, updated_at, version, custom_data, links_generation,
            expected_size_bytes, expected_content_type, expected_sha256, image_summary_due)
          values (in_id, in_project, in_creator, in_path, in_scope, 0,
            in_upload_expires_at, in_created_at, in_created_at, 0, in_custom_data, 0,
            in_expected_size_bytes, in_expected_content_type, in_expected_sha256, 0)
          on conflict (project_id, creator_id, file_path) do nothing;
        if not found then
          return;
        end if;
        perform set_config('${createdFileSetting}', in_id, true);
        insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
          values (in_id, 'user', in_creator, 0, in_project, in_created_at);
        if coalesce(in_user_quota_files, in_user_quota_bytes, in_project_quota_files, in_project_quota_bytes) is not null then
          select coalesce(sum(u.files) filter (where u.user_id = in_creator), 0),
                 coalesce(sum(u.bytes) filter (where u.user_id = in_creator), 0),
                 coalesce(sum(u.files) filter (where u.user_id = ''), 0),
                 coalesce(sum(u.bytes) filter (where u.user_id = ''), 0)
            into user_files, user_bytes, project_files, project_bytes
            from storage_usage as u
            where u.project_id = in_project and u.user_id in (in_creator, '');
          if (in_user_quota_files is not null and user_files > in_user_quota_files)
              or (grew_bytes and in_user_quota_bytes is not null and user_bytes > in_user_quota_bytes)
              or (in_project_quota_files is not null and project_files > in_project_quota_files)
              or (grew_bytes and in_project_quota_bytes is not null and project_bytes > in_project_quota_bytes) then
            raise exception using errcode = '${quotaExceededState}', message = 'quota exceeded',
              detail = json_build_object(
                'user', json_build_object('files', user_files, 'bytes', user_bytes),
                'project', json_build_object('files', project_files, 'bytes', project_bytes))::text;
          end if;
        end if;
        -- Each folder of the path has a length of its own: the shorter the nearer the root,
        -- ancestors first as findFolderAcls orders them, then by share time.
        select coalesce(jsonb_agg(jsonb_build_object('path', s.path, 'scope', s.scope, 'identifier', s.identifier)
                 order by length(s.path), s.shared_at), '[]'::jsonb)
          into shares
          from folder_shares as s
          where s.project_id = in_project and s.owner_id = in_creator and s.path = any(in_folders);
      end $$`)}`.execute(db);
    await touchFileOfAcl(db, skipCreatedFile);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`drop procedure create_file_at_once`.execute(db);
    await touchFileOfAcl(db, '');
  },
};

/** The trigger's skip of the creator's entry of a file create_file_at_once just inserted. */
export const skipCreatedFile = `
        if tg_op = 'INSERT' and new.file_id = current_setting('${createdFileSetting}', true) then
          return null;
        end if;`;

/**
 * The ACL's trigger (migration 0025, file-row-stamp.ts), which touches the file's row so that its
 * stamp moves, now skips the creator's entry of a file create_file_at_once just inserted: no one
 * outside the transaction has read that row, so no kept record can be stale, and the touch was an
 * update of the new row firing every update trigger of `files` (the folder tallies' statement
 * trigger computed a change that nets to nothing): ~1/4 of the procedure's backend CPU in a
 * sampled run. Every other ACL change moves the stamp as before, whoever writes it.
 */
export async function touchFileOfAcl(db: Kysely<unknown>, skip: string): Promise<void> {
  await sql`create or replace function touch_file_of_acl() returns trigger language plpgsql as ${sql.raw(`$$
      begin${skip}
        update files set row_stamp = row_stamp
          where id = (case when tg_op = 'DELETE' then old.file_id else new.file_id end);
        return null;
      end $$`)}`.execute(db);
}
