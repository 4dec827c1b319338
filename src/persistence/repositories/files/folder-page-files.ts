import { type Compilable, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema, FilesTable } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { prepareStatement } from '../prepared-query.ts';
import { toAclEntry, toFileRecord } from './file-rows.ts';
import type { FileViewCache } from './file-view-cache.ts';
import { findFolderAcls } from './folder-acl-rows.ts';

export type FolderFilesQuery = {
  projectId: string;
  ownerId: string;
  path: string;
  /** Rows to read: the page and one more, to tell whether another page follows. */
  limit: number;
  afterFilePath?: string;
};

type Statement<Row> = (
  db: Kysely<DatabaseSchema>,
  ...args: [string, string, string, number, string?]
) => Promise<Row[]>;

/**
 * A folder page's direct files, kept as a point read keeps one (file-view-cache.ts). The page's
 * keys come first (id and row stamp from files_folder_index: no row, no ACL); when every file
 * is kept with that stamp, the page is the kept records, whose wire views are made once too
 * (to-wire.ts). Building a hundred records each time (the rows, their ACLs, the records, the
 * views) was most of a page's cost. Otherwise the page is read whole, as before the keys, and
 * each of its records kept: one page is never part kept, part read, so it is always the
 * folder as of one read. The statements are compiled once.
 */
export class FolderPageFiles {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #views: FileViewCache;
  readonly #selectKeys: Statement<{ id: string; row_stamp: unknown }>;
  readonly #selectKeysAfter: Statement<{ id: string; row_stamp: unknown }>;
  readonly #selectRows: Statement<Selectable<FilesTable>>;
  readonly #selectRowsAfter: Statement<Selectable<FilesTable>>;
  readonly #selectAcls: (db: Kysely<DatabaseSchema>, ids: unknown) => Promise<AclRow[]>;

  constructor(db: Kysely<DatabaseSchema>, views: FileViewCache) {
    this.#db = db;
    this.#views = views;
    const sqlite = isSqlite(db);
    // SQLite is told the index: with a cursor it would otherwise range over the owner's unique
    // (project, creator, file_path) index, that is over the folder's whole subtree after it.
    const from = sqlite ? sql`files indexed by files_folder_index` : sql`files`;
    const filePath = sqlite ? sql`file_path` : sql`file_path collate "C"`;
    const select = <Row>(columns: RawBuilder<unknown>, cursor: boolean) =>
      prepareStatement(
        (projectId: string, ownerId: string, path: string, limit: number, after?: string) =>
          compilable(
            db,
            sql<Row>`select ${columns} from ${from}
              where project_id = ${projectId} and creator_id = ${ownerId} and folder_path = ${path}
              ${cursor ? sql`and ${filePath} > ${after}` : sql``}
              order by ${filePath} limit ${limit}`,
          ),
        cursor ? 5 : 4,
      ) as Statement<Row>;
    this.#selectKeys = select(sql`id, row_stamp`, false);
    this.#selectKeysAfter = select(sql`id, row_stamp`, true);
    this.#selectRows = select(sql`*`, false);
    this.#selectRowsAfter = select(sql`*`, true);
    // One parameter whatever the count: a JSON array on SQLite, an array on PostgreSQL.
    const idIn = (ids: unknown) =>
      sqlite ? sql`file_id in (select value from json_each(${ids}))` : sql`file_id = any(${ids})`;
    this.#selectAcls = prepareStatement(
      (ids: unknown) =>
        compilable(
          db,
          sql<AclRow>`select file_id, scope, identifier from file_acl where ${idIn(ids)}
            order by file_id, position`,
        ),
      1,
    );
  }

  /** The page's files by path (code-point order), one more than the page when more follow. */
  async read(query: FolderFilesQuery): Promise<FileRecord[]> {
    const { projectId, ownerId, path, limit, afterFilePath } = query;
    const args = [projectId, ownerId, path, limit, afterFilePath] as const;
    const keys =
      afterFilePath === undefined
        ? await this.#selectKeys(this.#db, ...args)
        : await this.#selectKeysAfter(this.#db, ...args);
    const kept: FileRecord[] = [];
    for (const key of keys) {
      const record = this.#views.findKept(key.id, key.row_stamp);
      if (record === undefined) return this.#readWhole(query);
      kept.push(record);
    }
    return kept;
  }

  /** The page's rows and their ACLs, each record kept with the stamp it was read with. */
  async #readWhole({
    projectId,
    ownerId,
    path,
    limit,
    afterFilePath,
  }: FolderFilesQuery): Promise<FileRecord[]> {
    const args = [projectId, ownerId, path, limit, afterFilePath] as const;
    const rows =
      afterFilePath === undefined
        ? await this.#selectRows(this.#db, ...args)
        : await this.#selectRowsAfter(this.#db, ...args);
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const aclRows = await this.#selectAcls(this.#db, isSqlite(this.#db) ? JSON.stringify(ids) : ids);
    const acls = Map.groupBy(aclRows, (row) => row.file_id);
    // The page's folder shares (issue 36): one folder's files share their ancestors, one query.
    const folderAcls = await findFolderAcls(this.#db, rows);
    return rows.map((row) => {
      const acl = (acls.get(row.id) ?? []).map((entry) => toAclEntry(entry.scope, entry.identifier));
      return this.#views.keep(toFileRecord(row, acl, folderAcls.get(row.id) ?? []), row.row_stamp);
    });
  }
}

type AclRow = { file_id: string; scope: string; identifier: string };

/** A raw statement as prepared-query.ts takes it (a raw builder compiles against a database). */
function compilable<Row>(db: Kysely<DatabaseSchema>, statement: RawBuilder<Row>): Compilable<Row> {
  return { compile: () => statement.compile(db) };
}
