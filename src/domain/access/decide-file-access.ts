import type { AclEntry, FileRecord } from '../files/file-record.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User } from '../identity/user-repository.ts';

/** The authenticated caller, as the barriers established it. */
export type Principal = {
  userId: string;
  projectId: string;
  role: string;
  /** Holds the project's admin role (default `admin`). */
  isAdmin: boolean;
  /** Where the request came from, for the events it causes (issue 22); absent outside HTTP. */
  client?: ClientInfo;
};

/** The client of a request as events record it. */
export type ClientInfo = { ip: string | null; userAgent: string | null };

/** A user of the project as a principal: an admin when their role is one of the project's admin roles. */
export function toPrincipal(project: Project, user: User): Principal {
  return {
    userId: user.id,
    projectId: project.id,
    role: user.role,
    isAdmin: project.settings.adminRoles.includes(user.role),
  };
}

/** `read`: metadata and download link. `manage`: verify, share, unshare, delete. */
export type FileAction = 'read' | 'manage';

export type FileAccessInput = {
  principal: Principal;
  file: Pick<FileRecord, 'projectId' | 'creatorId' | 'permissionScope' | 'acl' | 'folderAcl'>;
  action: FileAction;
};

/**
 * DESIGN §4: the creator and admins may do anything with a file; users named in a `user` entry
 * and users whose role is named in a `role` entry may read; with permissionScope `*` every
 * authenticated user of the project may read; so may those a share of one of the file's folders
 * names (issue 36: the record carries them, so this stays one decision). Fails closed: anything not listed is denied,
 * and nothing crosses projects.
 */
export function canAccessFile({ principal, file, action }: FileAccessInput): boolean {
  if (principal.projectId !== file.projectId) return false;
  if (principal.userId === file.creatorId || principal.isAdmin) return true;
  if (action !== 'read') return false;
  if (file.permissionScope === '*') return true;
  return namesAny(file.acl, principal) || namesAny(file.folderAcl, principal);
}

/** Whether one of the entries names the principal: a loop, no closure per request (the hot path). */
function namesAny(entries: readonly AclEntry[], principal: Principal): boolean {
  for (const entry of entries) if (names(entry, principal)) return true;
  return false;
}

/** Whether an ACL entry (a file's or a folder's) names the principal or its role. */
export function names(entry: AclEntry, principal: Principal): boolean {
  return (
    (entry.scope === 'user' && entry.identifier === principal.userId) ||
    (entry.scope === 'role' && entry.identifier === principal.role)
  );
}
