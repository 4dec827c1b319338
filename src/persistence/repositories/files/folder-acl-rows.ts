import type { Kysely } from 'kysely';
import type { AclScope, FolderAclEntry } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

/** What finding a file's folder shares needs of its row. */
export type FolderAclKey = { id: string; project_id: string; creator_id: string; file_path: string };

/** Folder paths asked for at once: under either dialect's bound-parameter limit, whatever the depth. */
const pathsPerQuery = 500;

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

/**
 * The folder shares of many files (issue 36), each file's ancestors first, in one query per
 * 500 distinct folder paths (one query for a page of one folder's files).
 */
export async function findFolderAcls(
  db: Kysely<DatabaseSchema>,
  files: readonly FolderAclKey[],
): Promise<Map<string, FolderAclEntry[]>> {
  const acls = new Map<string, FolderAclEntry[]>(files.map((file) => [file.id, []]));
  if (files.length === 0) return acls;
  const projects = [...new Set(files.map((file) => file.project_id))];
  const owners = [...new Set(files.map((file) => file.creator_id))];
  const paths = [...new Set(files.flatMap((file) => foldersOf(file.file_path)))];
  const shares: Array<{ project_id: string; owner_id: string } & FolderAclEntry> = [];
  for (let start = 0; start < paths.length; start += pathsPerQuery) {
    const rows = await db
      .selectFrom('folder_shares')
      .select(['project_id', 'owner_id', 'path', 'scope', 'identifier'])
      .where('project_id', 'in', projects)
      .where('owner_id', 'in', owners)
      .where('path', 'in', paths.slice(start, start + pathsPerQuery))
      .orderBy('path')
      .orderBy('shared_at')
      .execute();
    for (const row of rows) shares.push({ ...row, scope: row.scope as AclScope });
  }
  // Ancestors first (a shorter path sorts first among one file's folders); then by share time.
  shares.sort((a, b) => a.path.length - b.path.length);
  for (const file of files) {
    const acl = acls.get(file.id)!;
    for (const share of shares) {
      if (share.project_id !== file.project_id || share.owner_id !== file.creator_id) continue;
      if (!file.file_path.startsWith(share.path)) continue;
      acl.push({ scope: share.scope, identifier: share.identifier, path: share.path });
    }
  }
  return acls;
}
