import {
  accessDenied,
  archiveAccessDenied,
  archiveFilesNotFound,
  archiveFilesNotVerified,
  archiveTooLarge,
  folderNotFound,
  validationFailed,
} from '../../errors/errors.ts';
import { archiveFilesQuarantined } from '../../errors/quarantine-errors.ts';
import { canAccessFile, type Principal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { isServiceKeyPrincipal } from '../identity/service-keys.ts';
import { isWellFormedId } from '../ids.ts';

/** What an archive is made of: a selection of files, or one owner's folder (issue 40). */
export type ArchiveRequest = { fileIds: string[] } | { folder: { owner?: string; path: string } };

/** A verified file going into an archive, with its name there. */
export type ArchiveFile = { file: FileRecord; name: string };

/** The limits an archive is held to (project settings maxArchiveFiles, maxArchiveBytes). */
export type ArchiveLimits = { maxFiles: number; maxBytes: number };

/** Files a folder archive reads at a time from its owner's path index. */
const folderPage = 500;

/**
 * A selection: every id once (duplicates collapse, the first place kept), each checked as a
 * download link of it would be (spec 4.5, DESIGN §4). Any refusal refuses all, naming the ids:
 * unknown ones first (404, as GET /api/v1/file/:id answers them), then ones the caller may not
 * read (403), then unverified ones (409), then quarantined ones (451). Files are read 500 ids a statement (findByIds): one
 * read per id made a 10,000-file selection take seconds.
 */
export async function selectFiles(
  files: Pick<FileRepository, 'findByIds'>,
  principal: Principal,
  fileIds: readonly string[],
  limits: ArchiveLimits,
): Promise<FileRecord[]> {
  const unique = [...new Set(fileIds)];
  if (unique.length > limits.maxFiles)
    throw archiveTooLarge(`${unique.length} files; the project allows ${limits.maxFiles} (maxArchiveFiles)`);
  const found: FileRecord[] = [];
  const missing: string[] = [];
  const denied: string[] = [];
  const unverified: string[] = [];
  const quarantined: string[] = [];
  const records = await files.findByIds(unique.filter(isWellFormedId));
  for (const id of unique) {
    const file = records.get(id);
    if (!file) missing.push(id);
    else if (!canAccessFile({ principal, file, action: 'read' })) denied.push(id);
    else if (!file.verified || !file.content || !file.blobVersion) unverified.push(id);
    else if (file.quarantine) quarantined.push(id);
    else found.push(file);
  }
  if (missing.length > 0) throw archiveFilesNotFound(missing);
  if (denied.length > 0) throw archiveAccessDenied(denied);
  if (unverified.length > 0) throw archiveFilesNotVerified(unverified);
  // security: a quarantined file's bytes go to no one (issue 42), in a ZIP neither.
  if (quarantined.length > 0) throw archiveFilesQuarantined(quarantined);
  return found;
}

/**
 * A folder: every verified file of the owner under `path` (its subtree, in path order), read a
 * page at a time and never past the limit (one file more says it is over). Files not verified
 * yet are left out: they have no content to put in; nor are quarantined ones (issue 42). security: a caller reads another owner's
 * files through ACL entries, folder shares or the admin role only, never `*` scope, which lets
 * in those who hold a file's id (a folder hands out none); and a folder of which the caller may
 * read nothing is FOLDER_NOT_FOUND, as one with no file, so its existence is not told.
 */
export async function folderFiles(
  files: Pick<FileRepository, 'browse'>,
  principal: Principal,
  folder: { ownerId: string; path: string },
  limits: ArchiveLimits,
): Promise<FileRecord[]> {
  const chosen: FileRecord[] = [];
  let denied = 0;
  let after: { filePath: string; id: string } | undefined;
  for (;;) {
    const page = await files.browse({
      projectId: principal.projectId,
      creatorId: folder.ownerId,
      ...(folder.path !== '' && { prefix: folder.path }),
      ...(after && { after }),
      limit: folderPage,
    });
    for (const file of page) {
      const asReader = { ...file, permissionScope: 'user' as const };
      if (!canAccessFile({ principal, file: asReader, action: 'read' })) denied += 1;
      // Quarantined files (issue 42) are left out, as those with no content yet.
      else if (file.verified && file.content && file.blobVersion && !file.quarantine) chosen.push(file);
      if (chosen.length > limits.maxFiles)
        throw archiveTooLarge(
          `more than ${limits.maxFiles} files; the project allows ${limits.maxFiles} (maxArchiveFiles)`,
        );
    }
    const last = page.at(-1);
    if (page.length < folderPage || !last) break;
    after = { filePath: last.filePath, id: last.id };
  }
  if (chosen.length === 0) throw folderNotFound();
  if (denied > 0) throw accessDenied(`You may not read ${denied} files of this folder; no archive was made`);
  return chosen;
}

/** Whose folder: the caller's by default (a service key, which owns none, must name one). */
export function toArchiveFolderOwner(principal: Principal, owner: string | undefined): string {
  if (owner !== undefined) return owner;
  if (isServiceKeyPrincipal(principal)) throw validationFailed('folder.owner is required with a service key');
  return principal.userId;
}
