import { type Kysely, type Selectable, sql } from 'kysely';
import type {
  FolderPage,
  FolderPageQuery,
  FolderRepository,
  FolderSummary,
} from '../../domain/folders/folder-repository.ts';
import type { DatabaseSchema, FilesTable, FoldersTable } from '../database-schema.ts';
import { isSqlite } from '../is-sqlite.ts';
import { toFileRecords } from './files/file-rows.ts';

/**
 * Reads the folders the triggers of migration 0030_folders keep. A page is three index
 * ranges: the folder's row (its primary key), its subfolders (folders_parent_index) and its
 * direct files (files_folder_index, from the cursor on), in code-point order on both
 * dialects ("C" on PostgreSQL, as its indexes are; BINARY on SQLite). Its cost does not grow
 * with the folder's subtree, or the project. Each part is exact as of its own read.
 */
export class KyselyFolderRepository implements FolderRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
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
    const fileRows = await this.#selectFiles(query);
    const files = await toFileRecords(db, fileRows.slice(0, query.fileLimit));
    return {
      folder: toFolderSummary(folderRow),
      subfolders: subfolderRows.slice(0, query.subfolderLimit).map(toFolderSummary),
      subfoldersTruncated: subfolderRows.length > query.subfolderLimit,
      files,
      hasMoreFiles: fileRows.length > query.fileLimit,
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

  /**
   * The direct files after the cursor, one more than the page to tell whether more follow.
   * SQLite is told the index: with a cursor it would otherwise range over the owner's unique
   * (project, creator, file_path) index, that is over the folder's whole subtree after it.
   */
  async #selectFiles({ projectId, ownerId, path, fileLimit, afterFilePath }: FolderPageQuery) {
    const sqlite = isSqlite(this.#db);
    const from = sqlite ? sql`files indexed by files_folder_index` : sql`files`;
    const filePath = sqlite ? sql`file_path` : sql`file_path collate "C"`;
    const after = afterFilePath === undefined ? sql`` : sql`and ${filePath} > ${afterFilePath}`;
    const { rows } = await sql<Selectable<FilesTable>>`select * from ${from}
      where project_id = ${projectId} and creator_id = ${ownerId} and folder_path = ${path} ${after}
      order by ${filePath} limit ${fileLimit + 1}`.execute(this.#db);
    return rows;
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
