import type pg from 'pg';

/**
 * The counts that triggers on `files` keep (storage_usage, and folders since migration 0030),
 * recounted for one creator after a seeding that ran with `session_replication_role = replica`
 * (which skips every ordinary trigger). Run in the seeding's transaction, so a reader sees the
 * rows and their counts together, exactly as if each row had fired its triggers. One grouped
 * pass over the creator's rows: a million rows in seconds, where firing the folder trigger row
 * by row walks every file's folders one upsert at a time.
 */
export async function recountPostgresTallies(
  client: pg.Client,
  scope: { projectId: string; creatorId: string },
): Promise<void> {
  const { projectId, creatorId } = scope;
  const tables = await client.query<{ usage: string | null; folders: string | null }>(
    `select to_regclass('storage_usage')::text as usage, to_regclass('folders')::text as folders`,
  );
  // The bench also seeds older commits for before/after figures: count only what the schema keeps.
  const { usage, folders } = tables.rows[0]!;
  if (usage) await recountUsage(client, projectId, creatorId);
  if (folders) await recountFolders(client, projectId, creatorId);
}

/** storage_usage's rows for the project ('' user) and the creator, as migration 0025's count makes them. */
async function recountUsage(client: pg.Client, projectId: string, creatorId: string): Promise<void> {
  const counted = `case when verified = 1 then coalesce(content_size_bytes, 0)
    else coalesce(upload_size_bytes, expected_size_bytes, 0) end`;
  await client.query(`delete from storage_usage where project_id = $1 and user_id in ('', $2)`, [
    projectId,
    creatorId,
  ]);
  await client.query(
    `insert into storage_usage (project_id, user_id, files, bytes)
      select $1, '', count(*), coalesce(sum(${counted}), 0) from files where project_id = $1
      union all
      select $1, $2, count(*), coalesce(sum(${counted}), 0) from files where project_id = $1 and creator_id = $2`,
    [projectId, creatorId],
  );
}

/**
 * The creator's folder rows, as migration 0030's backfill makes them: the files counted per
 * direct folder (`folder_path`) in one pass, then each folder's sums added to every `/`-ended
 * prefix of it, the root '' included.
 */
async function recountFolders(client: pg.Client, projectId: string, creatorId: string): Promise<void> {
  const bytes = 'case when verified = 1 then coalesce(content_size_bytes, 0) else 0 end';
  await client.query('delete from folders where project_id = $1 and owner_id = $2', [projectId, creatorId]);
  await client.query(
    `with direct as (
        select folder_path, count(*) as files, sum(${bytes}) as bytes from files
          where project_id = $1 and creator_id = $2 group by folder_path)
      insert into folders (project_id, owner_id, path, parent, file_count, total_bytes, updated_at)
      select $1, $2, held.path, min(held.parent), sum(direct.files), sum(direct.bytes),
          (extract(epoch from clock_timestamp()) * 1000)::bigint
        from direct cross join lateral (
          select '' as path, null::text as parent
          union all
          select substr(folder_path, 1, n), coalesce(substring(substr(folder_path, 1, n - 1) from '^(.*/)'), '')
            from generate_series(1, length(folder_path)) as positions(n) where substr(folder_path, n, 1) = '/'
        ) as held
        group by held.path`,
    [projectId, creatorId],
  );
}
