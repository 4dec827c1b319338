import { type Kysely, sql } from 'kysely';
import type { BlobReferences } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

// What still needs version `v` of the storage key `<project>/<k>` (docs/decisions.md, "Copies
// share bytes"; issue 38): the record that stored it or any copy naming it (files), a
// non-current version (file_versions), a trashed file or trashed copy (trashed_files), a new
// version on its way (version_uploads, whose id is its storage key's). Each lookup is one
// index probe: by primary key, or by the (blob_file_id, blob_version) index of each table.

/** FileRepository.isBlobReferenced: one statement, so no reference moves between two reads. */
export async function isBlobReferenced(
  db: Kysely<DatabaseSchema>,
  blobFileId: string,
  version: string,
): Promise<boolean> {
  const k = blobFileId;
  const v = version;
  const { rows } = await sql<{ found: number }>`
    select 1 as found from files
      where (id = ${k} and (blob_version = ${v} or upload_blob_version = ${v}))
        or (blob_file_id = ${k} and blob_version = ${v})
    union all
    select 1 from file_versions where blob_file_id = ${k} and blob_version = ${v}
    union all
    select 1 from trashed_files
      where (id = ${k} and blob_version = ${v}) or (blob_file_id = ${k} and blob_version = ${v})
    union all
    select 1 from version_uploads where id = ${k} and upload_blob_version = ${v}
    limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * FileRepository.findSharedBlobVersions: the versions of each key that rows other than its own
 * record hold: copies (live or trashed) and non-current versions, whatever became of the file
 * that stored them.
 */
export async function findSharedBlobVersions(
  db: Kysely<DatabaseSchema>,
  blobFileIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const shared = new Map<string, Set<string>>();
  if (blobFileIds.length === 0) return shared;
  const rows = await db
    .selectFrom('files')
    .select(['blob_file_id', 'blob_version'])
    .where('blob_file_id', 'in', blobFileIds)
    .unionAll(
      db
        .selectFrom('file_versions')
        .select(['blob_file_id', 'blob_version'])
        .where('blob_file_id', 'in', blobFileIds),
    )
    .unionAll(
      db
        .selectFrom('trashed_files')
        .select(['blob_file_id', 'blob_version'])
        .where('blob_file_id', 'in', blobFileIds),
    )
    .execute();
  for (const row of rows) {
    if (row.blob_file_id === null || row.blob_version === null) continue;
    const versions = shared.get(row.blob_file_id) ?? new Set<string>();
    versions.add(row.blob_version);
    shared.set(row.blob_file_id, versions);
  }
  return shared;
}

/**
 * FileRepository.findBlobReferences: the versions each record holds under its own key, by id.
 * A trashed file answers as it did before the trash (it may come back); a version upload as an
 * unverified record (its staging object and its pending version stay while it is on its way).
 */
export async function findBlobReferences(
  db: Kysely<DatabaseSchema>,
  ids: readonly string[],
): Promise<Map<string, BlobReferences>> {
  const references = new Map<string, BlobReferences>();
  if (ids.length === 0) return references;
  // By primary key: an index lookup per id, whatever the size of the tables.
  const columns = ['id', 'project_id', 'verified', 'blob_version', 'upload_blob_version'] as const;
  const rows = await db
    .selectFrom('files')
    .select(columns)
    .where('id', 'in', ids)
    .unionAll(db.selectFrom('trashed_files').select(columns).where('id', 'in', ids))
    .unionAll(
      db
        .selectFrom('version_uploads')
        .select([
          'id',
          'project_id',
          sql<number>`0`.as('verified'),
          sql<string | null>`null`.as('blob_version'),
          'upload_blob_version',
        ])
        .where('id', 'in', ids),
    )
    .execute();
  for (const row of rows) {
    // A file on its way to or back from the trash is in both tables for an instant: the same row.
    if (references.has(row.id)) continue;
    references.set(row.id, {
      projectId: row.project_id,
      verified: Number(row.verified) === 1,
      blobVersion: row.blob_version,
      uploadBlobVersion: row.upload_blob_version,
    });
  }
  return references;
}
