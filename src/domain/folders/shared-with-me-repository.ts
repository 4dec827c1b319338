import type { AclScope, FileRecord } from '../files/file-record.ts';
import type { Grantee } from './folder-share-repository.ts';

/**
 * The four sets "shared with me" reads, each from its own index in share-time order, in the
 * order that breaks a tie of share times between them (the cursor's order, docs/decisions.md).
 */
export const sharedSets = [
  { kind: 'file', scope: 'role' },
  { kind: 'file', scope: 'user' },
  { kind: 'folder', scope: 'role' },
  { kind: 'folder', scope: 'user' },
] as const;

export type SharedSet = (typeof sharedSets)[number];

/**
 * Where a page ends: the last share it answered. Shares are ordered by time (newest first),
 * then by set (sharedSets), then within a set by its key (a file's id; a folder's owner and path).
 */
export type SharedPosition =
  | { kind: 'file'; scope: AclScope; sharedAt: number; fileId: string }
  | { kind: 'folder'; scope: AclScope; sharedAt: number; ownerId: string; path: string };

/** One share with the caller: a file's ACL entry past its creator's own, or a folder share. */
export type SharedItem =
  | { kind: 'file'; scope: AclScope; sharedAt: Date; file: FileRecord }
  | {
      kind: 'folder';
      scope: AclScope;
      sharedAt: Date;
      ownerId: string;
      path: string;
      /** The folder's subtree now: 0 and 0 while the owner has no file under it. */
      fileCount: number;
      totalBytes: number;
    };

export type SharedQuery = {
  projectId: string;
  /** The caller: shares naming their id or their role, of files and folders they do not own. */
  grantee: Grantee;
  limit: number;
  /** The page starts after this share; absent: the newest. */
  after?: SharedPosition;
};

/** "Shared with me" (issue 36, item 5): a page costs a page, whatever the caller's share count. */
export interface SharedWithMeRepository {
  /** At most `limit` shares after `after`, newest first, and whether more follow. */
  findShared(query: SharedQuery): Promise<{ items: SharedItem[]; hasMore: boolean }>;
}
