import type { TableName } from '../persistence/table-copy.ts';

// Which exported rows carry bytes, and where: a verified file's (files), a trashed file's
// (trashed_files, always verified: it keeps its content to come back) and a non-current
// version's (file_versions, issue 38). The export holds each once, under blobs/<name>; an
// import stores each as a new version of the file's own storage key and pins it in the row.

/** One row's bytes: where the export keeps them and where the live store holds them. */
export type RowBytes = {
  /** `<projectId>/<fileId>` for a file, `<projectId>/<fileId>.<versionId>` for a version (ids hold no dot). */
  name: string;
  /** The storage key holding them in the store exported from (a copy's: its source's). */
  storedUnder: string;
  version: string | null;
  /** The record to check the bytes against (exported-blob.ts toRecordMismatch). */
  record: Record<string, unknown>;
};

/** The bytes a row carries, or undefined for rows without (unverified files, ACLs, users…). */
export function toRowBytes(table: TableName, row: Record<string, unknown>): RowBytes | undefined {
  const version = typeof row.blob_version === 'string' ? row.blob_version : null;
  if ((table === 'files' || table === 'trashed_files') && row.verified === 1)
    return {
      name: `${row.project_id}/${row.id}`,
      storedUnder: `${row.project_id}/${row.blob_file_id ?? row.id}`,
      version,
      record: row,
    };
  if (table === 'file_versions')
    return {
      name: `${row.project_id}/${row.file_id}.${row.version_id}`,
      storedUnder: `${row.project_id}/${row.blob_file_id}`,
      version,
      record: {
        id: `${row.file_id} (version ${row.version_id})`,
        content_size_bytes: row.size_bytes,
        content_sha256: row.content_sha256,
        content_type: row.content_type,
        etag: row.etag,
      },
    };
  return undefined;
}

/** The storage key an exported blob goes to on import: its file's own (a version's too). */
export function toImportKey(name: string): string {
  return name.split('.')[0]!;
}

/** The row with its bytes pinned at `version` of its file's own storage key in the target store. */
export function pinVersion(table: TableName, row: Record<string, unknown>, version: string) {
  return table === 'file_versions'
    ? { ...row, blob_file_id: row.file_id, blob_version: version }
    : { ...row, blob_version: version, blob_file_id: null };
}
