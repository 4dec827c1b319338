import { type Kysely, sql } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { BrowsePage } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { toFileRecords } from './file-rows.ts';
import { nextPrefix } from './path-prefix.ts';

/**
 * The console's file browser: a project's files in path order (then id), optionally one
 * creator's, optionally under a path prefix, a page at a time from the last (path, id) seen.
 * Each page is an index range: (project_id, file_path) or (project_id, creator_id,
 * file_path), in code-point order on both dialects ("C" on PostgreSQL, as its path indexes
 * are; BINARY on SQLite), so a page costs the same on the millionth file as on the first.
 */
export async function browseFiles(db: Kysely<DatabaseSchema>, page: BrowsePage): Promise<FileRecord[]> {
  const path = isSqlite(db) ? sql`files.file_path` : sql`files.file_path collate "C"`;
  let query = db.selectFrom('files').selectAll().where('project_id', '=', page.projectId);
  if (page.creatorId !== undefined) query = query.where('creator_id', '=', page.creatorId);
  if (page.prefix) {
    query = query.where(sql<boolean>`${path} >= ${page.prefix}`);
    const upper = nextPrefix(page.prefix);
    if (upper !== undefined) query = query.where(sql<boolean>`${path} < ${upper}`);
  }
  if (page.after) {
    const { filePath, id } = page.after;
    query = query.where(
      sql<boolean>`(${path} > ${filePath} or (${path} = ${filePath} and files.id > ${id}))`,
    );
  }
  const rows = await query.orderBy(path).orderBy('id').limit(page.limit).execute();
  return toFileRecords(db, rows);
}
