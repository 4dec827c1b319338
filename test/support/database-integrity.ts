import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { countedBytes } from '../../src/persistence/migrations/storage-usage.ts';

/**
 * What each row holds in its owner's storage_usage (migrations 0010 and 0034): a file its
 * counted bytes, an earlier version its size while counted (its file is not in the trash), a
 * version upload its pending or declared bytes, a trashed file its held_bytes (trash_bytes).
 */
const usageRows = `
  select f.project_id, f.creator_id, 1 as files, ${countedBytes('f')} as bytes, 0 as trash_bytes from files f
  union all
  select v.project_id, v.creator_id, 0, case when v.counted = 1 then v.size_bytes else 0 end, 0 from file_versions v
  union all
  select u.project_id, u.creator_id, 0, coalesce(u.upload_size_bytes, u.expected_size_bytes, 0), 0 from version_uploads u
  union all
  select t.project_id, t.creator_id, 0, 0, t.held_bytes from trashed_files t`;

/** Files, bytes and trash bytes per user and per project (user ''), counted from the rows themselves. */
const recount = `
  select project_id, creator_id as user_id, sum(files) as files, sum(bytes) as bytes, sum(trash_bytes) as trash_bytes
    from (${usageRows}) r group by project_id, creator_id
  union all
  select project_id, '', sum(files), sum(bytes), sum(trash_bytes) from (${usageRows}) r group by project_id`;

/**
 * Rows that break what the code relies on, in portable SQL: a verified record without its
 * pinned version and content or still holding a pending upload, an unverified one with
 * content, a pending upload written by halves, a file without its creator's entry first, an
 * entry without its file, an entry newer than the file's version, or an entry whose listing
 * keys (project, creation time) are not its file's; usage counters (files, bytes, trash bytes)
 * that differ from a recount of the rows. Versions and trash (issue 38): an earlier version
 * whose file is neither live nor trashed, or counted while its file is trashed (or not while
 * it is live); a version upload without its live file; a file both live and trashed; a
 * trashed file whose held_bytes is not its content and versions, or without its creator's
 * entry first.
 */
const inconsistentRows = `
  select f.id as id, 'record fields' as problem from files f where
       (f.verified = 1 and (f.etag is null or f.blob_version is null or f.content_size_bytes is null
                            or f.content_type is null or f.upload_blob_version is not null))
    or (f.verified = 0 and (f.etag is not null or f.blob_version is not null or f.content_size_bytes is not null))
    or ((f.upload_blob_version is null) <> (f.upload_etag is null))
    or ((f.upload_blob_version is null) <> (f.upload_size_bytes is null))
    or ((f.upload_blob_version is null) <> (f.upload_content_type is null))
  union all
  select f.id, 'no creator entry' from files f where not exists (
    select 1 from file_acl a
    where a.file_id = f.id and a.position = 0 and a.scope = 'user' and a.identifier = f.creator_id)
  union all
  select a.file_id, 'entry without file' from file_acl a where not exists (select 1 from files f where f.id = a.file_id)
  union all
  select a.file_id, 'entry newer than the file' from file_acl a join files f on f.id = a.file_id where a.position > f.version
  union all
  select a.file_id, 'entry listing keys' from file_acl a join files f on f.id = a.file_id
    where a.project_id <> f.project_id or a.file_created_at <> f.created_at
  union all
  select c.project_id || '/' || c.user_id, 'storage usage' from (${recount}) c
    left join storage_usage u on u.project_id = c.project_id and u.user_id = c.user_id
    where u.files is null or u.files <> c.files or u.bytes <> c.bytes or u.trash_bytes <> c.trash_bytes
  union all
  select u.project_id || '/' || u.user_id, 'storage usage of nothing' from storage_usage u
    where (u.files <> 0 or u.bytes <> 0 or u.trash_bytes <> 0) and not exists (select 1 from (${recount}) c
      where c.project_id = u.project_id and c.user_id = u.user_id)
  union all
  select v.file_id || '/' || v.version_id, 'version without file' from file_versions v
    where not exists (select 1 from files f where f.id = v.file_id)
      and not exists (select 1 from trashed_files t where t.id = v.file_id)
  union all
  select v.file_id || '/' || v.version_id, 'version counted' from file_versions v
    where v.counted <> (case when exists (select 1 from trashed_files t where t.id = v.file_id) then 0 else 1 end)
  union all
  select u.id, 'version upload without file' from version_uploads u
    where not exists (select 1 from files f where f.id = u.file_id and f.project_id = u.project_id)
  union all
  select f.id, 'live and trashed' from files f join trashed_files t on t.id = f.id
  union all
  select t.id, 'trash held bytes' from trashed_files t
    where t.held_bytes <> coalesce(t.content_size_bytes, 0)
      + coalesce((select sum(v.size_bytes) from file_versions v where v.file_id = t.id), 0)
  union all
  select t.id, 'trashed without creator entry' from trashed_files t where not exists (
    select 1 from trashed_file_acl a
    where a.file_id = t.id and a.position = 0 and a.scope = 'user' and a.identifier = t.creator_id)`;

/** Where a server keeps its data: its data dir, and its stack's stores (PostgreSQL, S3) if any. */
export type Target = { dataDir: string; env: Record<string, string> };

/** Runs one read-only query on the target's metadata store (SQLite in its data dir, or PostgreSQL). */
export async function queryRows(target: Target, query: string): Promise<Record<string, unknown>[]> {
  const postgresUrl = target.env.COFFER_DATABASE_URL;
  if (postgresUrl?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: postgresUrl });
    client.on('error', () => {}); // a lost connection fails the query instead
    await client.connect();
    try {
      return (await client.query(query)).rows;
    } finally {
      await client.end();
    }
  }
  const database = new DatabaseSync(path.join(target.dataDir, 'coffer.db'), { readOnly: true });
  try {
    return database
      .prepare(query)
      .all()
      .map((row) => ({ ...row }));
  } finally {
    database.close();
  }
}

/** A blob version a record needs: its pinned content or its pending upload. */
export type ReferencedBlob = { key: string; version: string };

/**
 * The blob versions rows name, as design 38 lists the references: a file's content (a copy's
 * lives under its source's key, blob_file_id; a promoted version's under its upload's) and its
 * pending upload (always under its own key); an earlier version's bytes; a trashed file's
 * content; a version upload's pending bytes (under the upload's own id).
 */
const referencingRows = `
  select project_id, coalesce(blob_file_id, id) as blob_file_id, blob_version from files where blob_version is not null
  union all
  select project_id, id, upload_blob_version from files where upload_blob_version is not null
  union all
  select project_id, blob_file_id, blob_version from file_versions
  union all
  select project_id, coalesce(blob_file_id, id), blob_version from trashed_files where blob_version is not null
  union all
  select project_id, id, upload_blob_version from version_uploads where upload_blob_version is not null`;

/** Every blob version some row still points at (each once). */
export async function listReferencedBlobs(target: Target): Promise<ReferencedBlob[]> {
  const rows = await queryRows(target, referencingRows);
  const keyed = new Map(
    rows.map((row) => {
      const blob = { key: `${row.project_id}/${row.blob_file_id}`, version: String(row.blob_version) };
      return [`${blob.key}.${blob.version}`, blob];
    }),
  );
  return [...keyed.values()];
}

/** The blob files (`<projectId>/<fileId>.<version>.blob`) some record still points at. */
export async function listReferencedBlobFiles(target: Target): Promise<string[]> {
  return (await listReferencedBlobs(target)).map(({ key, version }) => `${key}.${version}.blob`);
}

/**
 * The metadata store after a crash: SQLite's own integrity and foreign-key checks, and on
 * both databases the consistency query above (PostgreSQL checks its pages itself).
 */
export async function assertDatabaseIntegrity(target: Target): Promise<void> {
  if (!target.env.COFFER_DATABASE_URL?.startsWith('postgres')) {
    assert.deepEqual(await queryRows(target, 'pragma integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(await queryRows(target, 'pragma foreign_key_check'), [], 'foreign keys');
  }
  assert.deepEqual(await findInconsistentRows(target), [], 'inconsistent rows');
}

/** The rows the consistency query above finds (`{id, problem}` each): none on a sound store. */
export function findInconsistentRows(target: Target): Promise<Record<string, unknown>[]> {
  return queryRows(target, inconsistentRows);
}
