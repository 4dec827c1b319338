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

type ShareRow = { owner_id: string; path: string; scope: string; identifier: string };
type SelectShares = (
  executor: QueryExecutor,
  projectId: string,
  owners: unknown,
  paths: unknown,
) => Promise<ShareRow[]>;
type Statements = { ofOwner: SelectShares; ofOwners: SelectShares };

/** Per dialect, compiled against the first handle that asks (any handle of it compiles the same). */
const statementsByDialect = new Map<boolean, Statements>();

/**
 * Owners asked one statement each, at once, up to this many; past it, one statement for all
 * (a listing page of many creators' files would otherwise be that many round trips).
 */
const ownersAtOnce = 4;

/**
 * Shares of some folders, the paths as one parameter (a JSON array on SQLite, an array on
 * PostgreSQL) so that a statement's text never changes with the count and it is compiled
 * once. `ofOwner` takes one owner as an equality: run as a named statement
 * (prepared-statements.ts), its generic plan on PostgreSQL is an index scan of
 * folder_shares_pk (0.12 ms at 2,000 shares), where the earlier `owner_id in (…) and path in
 * (…)`, one text per count of each list, was planned each time and as a seq scan of the table
 * (0.5–5 ms; docs/benchmarks.md). `ofOwners` takes the owners as a second array.
 */
function statementsOf(db: Kysely<DatabaseSchema>, sqlite: boolean): Statements {
  let statements = statementsByDialect.get(sqlite);
  if (statements === undefined) {
    const isIn = (column: string, values: unknown): RawBuilder<unknown> =>
      sqlite
        ? sql`${sql.ref(column)} in (select value from json_each(${values}))`
        : sql`${sql.ref(column)} = any(${values})`;
    const select = (owner: (owners: unknown) => RawBuilder<unknown>) =>
      prepareStatement(
        (projectId: string, owners: unknown, paths: unknown) => ({
          compile: () =>
            sql<ShareRow>`select owner_id, path, scope, identifier from folder_shares
              where project_id = ${projectId} and ${owner(owners)} and ${isIn('path', paths)}
              order by path, shared_at`.compile(db),
        }),
        3,
      );
    statements = {
      ofOwner: select((owner) => sql`owner_id = ${owner}`),
      ofOwners: select((owners) => isIn('owner_id', owners)),
    };
    statementsByDialect.set(sqlite, statements);
  }
  return statements;
}

/**
 * The folder shares of many files (issue 36), each file's ancestors first: one query per
 * owner among them, at once (one for a page of one folder's files), or one for all past
 * four owners.
 */
export async function findFolderAcls(
  db: Kysely<DatabaseSchema>,
  files: readonly FolderAclKey[],
): Promise<Map<string, FolderAclEntry[]>> {
  const acls = new Map<string, FolderAclEntry[]>(files.map((file) => [file.id, []]));
  if (files.length === 0) return acls;
  const sqlite = isSqlite(db);
  const { ofOwner, ofOwners } = statementsOf(db, sqlite);
  const asParameter = (values: string[]) => (sqlite ? JSON.stringify(values) : values);
  const pathsOf = (some: readonly FolderAclKey[]) =>
    asParameter([...new Set(some.flatMap((file) => foldersOf(file.file_path)))]);
  for (const [projectId, projectFiles] of Map.groupBy(files, (file) => file.project_id)) {
    const owners = Map.groupBy(projectFiles, (file) => file.creator_id);
    const shares =
      owners.size <= ownersAtOnce
        ? // On PostgreSQL each is a round trip of its own: a shared-with-me page names several owners.
          (
            await Promise.all(
              [...owners].map(([ownerId, own]) => ofOwner(db, projectId, ownerId, pathsOf(own))),
            )
          ).flat()
        : await ofOwners(db, projectId, asParameter([...owners.keys()]), pathsOf(projectFiles));
    // Ancestors first (a shorter path first; the sort is stable, so then by share time).
    shares.sort((a, b) => a.path.length - b.path.length);
    for (const file of projectFiles) {
      const acl = acls.get(file.id)!;
      for (const share of shares) {
        if (share.owner_id !== file.creator_id || !file.file_path.startsWith(share.path)) continue;
        acl.push({ scope: share.scope as AclScope, identifier: share.identifier, path: share.path });
      }
    }
  }
  return acls;
}
