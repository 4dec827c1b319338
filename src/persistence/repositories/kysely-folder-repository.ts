import { type Kysely, type Selectable, sql } from 'kysely';
import type {
  FolderPage,
  FolderPageQuery,
  FolderRepository,
  FolderSummary,
} from '../../domain/folders/folder-repository.ts';
import type { DatabaseSchema, FoldersTable } from '../database-schema.ts';
import { isSqlite } from '../is-sqlite.ts';
import type { FileViewCache } from './files/file-view-cache.ts';
import { FolderPageFiles } from './files/folder-page-files.ts';

/**
 * Reads the folders the triggers of migration 0030_folders keep. A page is three index
 * ranges: the folder's row (its primary key), its subfolders (folders_parent_index) and its
 * direct files (files_folder_index, from the cursor on; kept records when none changed:
 * folder-page-files.ts), in code-point order on both
 * dialects ("C" on PostgreSQL, as its indexes are; BINARY on SQLite). Its cost does not grow
 * with the folder's subtree, or the project. Each part is exact as of its own read.
 */
export class KyselyFolderRepository implements FolderRepository {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #files: FolderPageFiles;

  /** `views`: the file repository's, so a page and a point read keep one record of a file. */
  constructor(db: Kysely<DatabaseSchema>, views: FileViewCache) {
    this.#db = db;
    this.#files = new FolderPageFiles(db, views);
  }

  async findPage(query: FolderPageQuery): Promise<FolderPage | undefined> {
    const db = this.#db;
    const { projectId, ownerId, path } = query;
    const folderRow = await db
      .selectFrom('folders')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('owner_id', '=', ownerId)
      .where('path', '=', path)
      .executeTakeFirst();
    if (folderRow === undefined) return undefined;
    const subfolderRows = query.subfolderLimit === 0 ? [] : await this.#selectSubfolders(query);
    const files = await this.#files.read({ ...query, limit: query.fileLimit + 1 });
    return {
      folder: toFolderSummary(folderRow),
      subfolders: subfolderRows.slice(0, query.subfolderLimit).map(toFolderSummary),
      subfoldersTruncated: subfolderRows.length > query.subfolderLimit,
      files: files.slice(0, query.fileLimit),
      hasMoreFiles: files.length > query.fileLimit,
    };
  }

  /** One more than the limit, to tell whether the list was cut. */
  #selectSubfolders({ projectId, ownerId, path, subfolderLimit }: FolderPageQuery) {
    const byPath = isSqlite(this.#db) ? sql`path` : sql`path collate "C"`;
    return this.#db
      .selectFrom('folders')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('owner_id', '=', ownerId)
      .where('parent', '=', path)
      .orderBy(byPath)
      .limit(subfolderLimit + 1)
      .execute();
  }
}

function toFolderSummary(row: Selectable<FoldersTable>): FolderSummary {
  return {
    path: row.path,
    fileCount: Number(row.file_count),
    totalBytes: Number(row.total_bytes),
    updatedAt: new Date(Number(row.updated_at)),
  };
}
