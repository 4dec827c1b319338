import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AclScope } from '../../../domain/files/file-record.ts';
import type { FolderRef } from '../../../domain/folders/folder-change-repository.ts';
import type { FolderShare } from '../../../domain/folders/folder-share-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { foldersOf } from '../files/folder-acl-rows.ts';
import { nextPrefix } from '../files/path-prefix.ts';

/**
 * The shares of a folder's subtree (the folder's own included): a range of folder_shares_pk
 * (path is "C" on PostgreSQL, BINARY on SQLite), with the exact prefix test beside it.
 */
export function sharesUnder(db: Kysely<DatabaseSchema>, folder: FolderRef): RawBuilder<boolean> {
  const upper = nextPrefix(folder.path);
  const path = isSqlite(db) ? sql.ref('path') : sql`path collate "C"`;
  const range =
    upper === undefined
      ? sql`${path} >= ${folder.path}`
      : sql`${path} >= ${folder.path} and ${path} < ${upper}`;
  return sql<boolean>`project_id = ${folder.projectId} and owner_id = ${folder.ownerId} and ${range}
    and substr(path, 1, length(cast(${folder.path} as text))) = ${folder.path}`;
}

/** The shares reaching a folder (its own and its ancestors'), the root first: point reads of the key. */
export function selectSharesReaching(db: Kysely<DatabaseSchema>, folder: FolderRef) {
  return db
    .selectFrom('folder_shares')
    .select(['path', 'scope', 'identifier', 'shared_at'])
    .where('project_id', '=', folder.projectId)
    .where('owner_id', '=', folder.ownerId)
    .where('path', 'in', foldersOf(folder.path));
}

export function toFolderShares(
  rows: ReadonlyArray<{ path: string; scope: string; identifier: string; shared_at: number | string }>,
): FolderShare[] {
  return rows
    .map((row) => ({
      scope: row.scope as AclScope,
      identifier: row.identifier,
      path: row.path,
      sharedAt: new Date(Number(row.shared_at)),
    }))
    .sort((a, b) => a.path.length - b.path.length || a.sharedAt.getTime() - b.sharedAt.getTime());
}
