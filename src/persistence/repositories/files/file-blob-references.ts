import type { Kysely } from 'kysely';
import type { BlobReferences } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

// Copies share their source's bytes (migrations/file-blob-sharing.ts): what still needs a
// version is the record that stored it or any copy naming it.

/** FileRepository.isBlobReferenced. */
export async function isBlobReferenced(
  db: Kysely<DatabaseSchema>,
  blobFileId: string,
  version: string,
): Promise<boolean> {
  // Two index lookups: the owner by primary key, the copies by files_blob_file_idx.
  const found = await db
    .selectFrom('files')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('id', '=', blobFileId),
          eb.or([eb('blob_version', '=', version), eb('upload_blob_version', '=', version)]),
        ]),
        eb.and([eb('blob_file_id', '=', blobFileId), eb('blob_version', '=', version)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** FileRepository.findSharedBlobVersions. */
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
    .execute();
  for (const row of rows) {
    if (row.blob_file_id === null || row.blob_version === null) continue;
    const versions = shared.get(row.blob_file_id) ?? new Set<string>();
    versions.add(row.blob_version);
    shared.set(row.blob_file_id, versions);
  }
  return shared;
}

/** FileRepository.findBlobReferences: the versions each record holds, by id. */
export async function findBlobReferences(
  db: Kysely<DatabaseSchema>,
  ids: readonly string[],
): Promise<Map<string, BlobReferences>> {
  const references = new Map<string, BlobReferences>();
  if (ids.length === 0) return references;
  // By primary key: an index lookup per id, whatever the size of the table.
  const rows = await db
    .selectFrom('files')
    .select(['id', 'project_id', 'verified', 'blob_version', 'upload_blob_version'])
    .where('id', 'in', ids)
    .execute();
  for (const row of rows) {
    references.set(row.id, {
      projectId: row.project_id,
      verified: row.verified === 1,
      blobVersion: row.blob_version,
      uploadBlobVersion: row.upload_blob_version,
    });
  }
  return references;
}
