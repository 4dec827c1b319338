import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AclScope, FolderAclEntry } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { prepareStatement, type QueryExecutor } from '../prepared-query.ts';

/** What finding a file's folder shares needs of its row. */
export type FolderAclKey = { id: string; project_id: string; creator_id: string; file_path: string };

/**
 * The folders holding a file path, the root first: `a/b/c.jpg` → '', `a/`, `a/b/`. A file's
 * folder shares are point reads of these keys (folder_shares_pk), never a per-ancestor query.
 */
export function foldersOf(filePath: string): string[] {
  const folders = [''];
  for (let slash = filePath.indexOf('/'); slash !== -1; slash = filePath.indexOf('/', slash + 1)) {
    folders.push(filePath.slice(0, slash + 1));
  }
  return folders;
}

type ShareRow = { path: string; scope: string; identifier: string };
type SelectShares = (
  executor: QueryExecutor,
  projectId: string,
  ownerId: string,
  paths: unknown,
) => Promise<ShareRow[]>;

/** Per dialect, compiled against the first handle that asks (any handle of it compiles the same). */
const statements = new Map<boolean, SelectShares>();

/**
 * One owner's shares of some folders: the primary key's prefix (project, owner) as equalities
 * and the paths as one parameter (a JSON array on SQLite, an array on PostgreSQL), so the
 * statement is compiled once and its shape never changes with the count. Run as a named
 * statement (prepared-statements.ts), its generic plan on PostgreSQL is an index scan of
 * folder_shares_pk (0.12 ms at 2,000 shares); the earlier `owner_id in (…) and path in (…)`,
 * one text per count of each list, was planned each time and as a seq scan of the table
 * (0.5–5 ms; docs/benchmarks.md).
 */
function selectSharesOf(db: Kysely<DatabaseSchema>, sqlite: boolean): SelectShares {
  let select = statements.get(sqlite);
  if (select === undefined) {
    const pathIn = (paths: unknown): RawBuilder<unknown> =>
      sqlite ? sql`path in (select value from json_each(${paths}))` : sql`path = any(${paths})`;
    select = prepareStatement(
      (projectId: string, ownerId: string, paths: unknown) => ({
        compile: () =>
          sql<ShareRow>`select path, scope, identifier from folder_shares
            where project_id = ${projectId} and owner_id = ${ownerId} and ${pathIn(paths)}
            order by path, shared_at`.compile(db),
      }),
      3,
    );
    statements.set(sqlite, select);
  }
  return select;
}

/**
 * The folder shares of many files (issue 36), each file's ancestors first: one query per
 * project and owner among them (one for a page of one folder's files or one owner's).
 */
export async function findFolderAcls(
  db: Kysely<DatabaseSchema>,
  files: readonly FolderAclKey[],
): Promise<Map<string, FolderAclEntry[]>> {
  const acls = new Map<string, FolderAclEntry[]>(files.map((file) => [file.id, []]));
  if (files.length === 0) return acls;
  const sqlite = isSqlite(db);
  const select = selectSharesOf(db, sqlite);
  const owners = Map.groupBy(files, (file) => `${file.project_id}\u0000${file.creator_id}`);
  // Owners at once: on PostgreSQL each is a round trip of its own (a shared-with-me page may
  // name several owners); a folder page, a point read and an upload name one.
  await Promise.all(
    [...owners.values()].map(async (ownFiles) => {
      const { project_id: projectId, creator_id: ownerId } = ownFiles[0]!;
      const paths = [...new Set(ownFiles.flatMap((file) => foldersOf(file.file_path)))];
      const rows = await select(db, projectId, ownerId, sqlite ? JSON.stringify(paths) : paths);
      // Ancestors first (a shorter path first; the sort is stable, so then by share time).
      rows.sort((a, b) => a.path.length - b.path.length);
      for (const file of ownFiles) {
        const acl = acls.get(file.id)!;
        for (const share of rows) {
          if (!file.file_path.startsWith(share.path)) continue;
          acl.push({ scope: share.scope as AclScope, identifier: share.identifier, path: share.path });
        }
      }
    }),
  );
  return acls;
}
