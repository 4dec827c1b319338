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

/**
 * PostgreSQL: makes a folder move or delete serializable with the writes racing it. Under READ
 * COMMITTED a single DELETE or UPDATE sees the rows committed when it began, so a copy into the
 * folder that committed while the statement waited on the copy's lock of its source survived a
 * folder delete (test/folders/folder-races.property.test.ts found it). So, before its statements:
 * 1. lock the folder's files: this waits for a writer holding one of them (a copy's source,
 *    a single move), which then commits;
 * 2. lock the owner's root row of `folders`: every insert, move or delete of the owner's files
 *    updates it (the folder-count triggers), so a writer that already wrote waits to commit
 *    first, and one that writes later waits for this transaction. The usage rows the writers'
 *    triggers take before it are taken first, in their order. A writer that needs one of the
 *    files locked in step 1 waits there, holding nothing this one needs: no deadlock.
 * The statements after it see every write that came first. One deadlock is left: a writer that
 * inserted a file at a path the move's files go to (an upload, a copy, a single move) waits for
 * the usage rows while the move's update waits for that path. PostgreSQL rolls one of them back,
 * and write-transaction.ts runs it again: it then meets the other's outcome, a serial one (the
 * path taken, or the move's clash). SQLite serializes writers already.
 */
export async function lockFolderAgainstWriters(
  trx: Kysely<DatabaseSchema>,
  folder: FolderRef,
): Promise<void> {
  if (isSqlite(trx)) return;
  await trx.selectFrom('files').select('id').where(underFolder(trx, folder)).forUpdate().execute();
  // In the order every writer's triggers take them: the usage rows (the project's, then the
  // owner's: migrations/storage-usage.ts), then the folders (the root first).
  await sql`select 1 from storage_usage where project_id = ${folder.projectId} and user_id = '' for update`.execute(
    trx,
  );
  await sql`select 1 from storage_usage where project_id = ${folder.projectId} and user_id = ${folder.ownerId}
    for update`.execute(trx);
  await sql`select 1 from folders where project_id = ${folder.projectId} and owner_id = ${folder.ownerId}
    and path = '' for update`.execute(trx);
}
