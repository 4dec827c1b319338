import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { FolderRef } from '../../../domain/folders/folder-change-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { nextPrefix } from '../files/path-prefix.ts';

/**
 * The files of one owner under a folder: an index range of files_project_creator_path_idx
 * ((project_id, creator_id, file_path), "C" on PostgreSQL, BINARY on SQLite: code-point order
 * on both), with a literal comparison of the leading characters as the exact test (path-prefix.ts).
 */
export function underFolder(
  db: Kysely<DatabaseSchema>,
  folder: FolderRef,
  alias = 'files',
): RawBuilder<boolean> {
  const column = sql.ref(`${alias}.file_path`);
  const path = isSqlite(db) ? column : sql`${column} collate "C"`;
  const upper = nextPrefix(folder.path);
  const range =
    upper === undefined
      ? sql`${path} >= ${folder.path}`
      : sql`${path} >= ${folder.path} and ${path} < ${upper}`;
  return sql<boolean>`${sql.ref(`${alias}.project_id`)} = ${folder.projectId}
    and ${sql.ref(`${alias}.creator_id`)} = ${folder.ownerId}
    and ${range}
    and substr(${column}, 1, length(cast(${folder.path} as text))) = ${folder.path}`;
}

/** How many files lie under the folder (an index range, counted). */
export async function countUnderFolder(db: Kysely<DatabaseSchema>, folder: FolderRef): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where(underFolder(db, folder))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** SQL substr() counts characters (code points) on both dialects, not UTF-16 units as JavaScript does. */
export function codePointLength(text: string): number {
  return [...text].length;
}
