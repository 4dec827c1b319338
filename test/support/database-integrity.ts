import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { countedBytes } from '../../src/persistence/migrations/storage-usage.ts';

/** Files and bytes per user and per project (user ''), counted from the rows themselves. */
const recount = `
  select project_id, creator_id as user_id, count(*) as files, sum(${countedBytes('f')}) as bytes
    from files f group by project_id, creator_id
  union all
  select project_id, '', count(*), sum(${countedBytes('f')}) from files f group by project_id`;

/**
 * Rows that break what the code relies on, in portable SQL: a verified record without its
 * pinned version and content or still holding a pending upload, an unverified one with
 * content, a pending upload written by halves, a file without its creator's entry first, an
 * entry without its file, an entry newer than the file's version, or an entry whose listing
 * keys (project, creation time) are not its file's; usage counters (migration
 * 0010_storage_usage) that differ from a recount of the rows.
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
    where u.files is null or u.files <> c.files or u.bytes <> c.bytes
  union all
  select u.project_id || '/' || u.user_id, 'storage usage of nothing' from storage_usage u
    where (u.files <> 0 or u.bytes <> 0) and not exists (select 1 from files f where f.project_id = u.project_id
      and (u.user_id = '' or f.creator_id = u.user_id))`;

type Target = { dataDir: string; env: Record<string, string> };

/** Runs one read-only query on the target's metadata store (SQLite in its data dir, or PostgreSQL). */
async function queryRows(target: Target, query: string): Promise<Record<string, unknown>[]> {
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
 * Every blob version some record still points at. A copy's content lives under its source's
 * key (blob_file_id); a pending upload always under the file's own.
 */
export async function listReferencedBlobs(target: Target): Promise<ReferencedBlob[]> {
  const rows = await queryRows(
    target,
    'select project_id, id, blob_file_id, blob_version, upload_blob_version from files',
  );
  return rows.flatMap((row) => [
    ...(row.blob_version === null
      ? []
      : [{ key: `${row.project_id}/${row.blob_file_id ?? row.id}`, version: String(row.blob_version) }]),
    ...(row.upload_blob_version === null
      ? []
      : [{ key: `${row.project_id}/${row.id}`, version: String(row.upload_blob_version) }]),
  ]);
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
  assert.deepEqual(await queryRows(target, inconsistentRows), [], 'inconsistent rows');
}
