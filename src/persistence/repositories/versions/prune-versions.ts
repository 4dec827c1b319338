import type { Kysely } from 'kysely';
import type { ReleasedBlob } from '../../../domain/versions/file-version.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

/**
 * Removes the file's earlier versions beyond the `kept` newest (inside the caller's
 * transaction) and answers their bytes. A file keeps at most versionsKept + 1 rows here, so
 * this reads a handful of rows.
 */
export async function pruneBeyondKept(
  trx: Kysely<DatabaseSchema>,
  fileId: string,
  kept: number,
): Promise<ReleasedBlob[]> {
  const beyond = await trx
    .selectFrom('file_versions')
    .select(['version_id', 'blob_file_id', 'blob_version'])
    .where('file_id', '=', fileId)
    .orderBy('noncurrent_at', 'desc')
    .orderBy('version_id', 'desc')
    .offset(kept)
    .limit(1_000_000)
    .execute();
  if (beyond.length === 0) return [];
  await trx
    .deleteFrom('file_versions')
    .where('file_id', '=', fileId)
    .where(
      'version_id',
      'in',
      beyond.map((row) => row.version_id),
    )
    .execute();
  return beyond.map((row) => ({ blobFileId: row.blob_file_id, blobVersion: row.blob_version }));
}

/**
 * VersionRepository.pruneOlderThan: the project's earlier versions that became earlier before
 * `before`, oldest first (file_versions_age: an index range), never a held or trashed file's.
 */
export async function pruneOlderThan(
  trx: Kysely<DatabaseSchema>,
  projectId: string,
  before: Date,
  limit: number,
): Promise<ReleasedBlob[]> {
  const due = await trx
    .selectFrom('file_versions as v')
    .select(['v.file_id', 'v.version_id', 'v.blob_file_id', 'v.blob_version'])
    .where('v.project_id', '=', projectId)
    .where('v.noncurrent_at', '<', before.getTime())
    // A trashed file's versions stay as its trashed row counted them (held_bytes) until it is
    // purged or restored; a held file keeps every version.
    .where('v.counted', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('files as f')
            .select('f.id')
            .whereRef('f.id', '=', 'v.file_id')
            .where('f.hold_reason', 'is not', null),
        ),
      ),
    )
    .orderBy('v.noncurrent_at')
    .limit(limit)
    .execute();
  for (const row of due)
    await trx
      .deleteFrom('file_versions')
      .where('file_id', '=', row.file_id)
      .where('version_id', '=', row.version_id)
      .execute();
  return due.map((row) => ({ blobFileId: row.blob_file_id, blobVersion: row.blob_version }));
}
