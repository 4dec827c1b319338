import { accessDenied, fileNotFound } from '../../errors/errors.ts';
import { canAccessFile, type FileAction, type Principal } from '../access/decide-file-access.ts';
import { isWellFormedId } from '../ids.ts';
import type { FileRecord } from './file-record.ts';
import type { FileRepository } from './file-repository.ts';

/**
 * The file, if `principal` may do `action` with it: FILE_NOT_FOUND or ACCESS_DENIED otherwise.
 * `recent`: the hot read's lookup (FileRepository.findRecentById), for a read that changes nothing.
 */
export async function getAccessibleFile(
  files: FileRepository,
  principal: Principal,
  fileId: string,
  action: FileAction,
  lookup: 'current' | 'recent' = 'current',
): Promise<FileRecord> {
  const find = lookup === 'recent' ? files.findRecentById : files.findById;
  const file = isWellFormedId(fileId) ? await find.call(files, fileId) : undefined;
  if (!file) throw fileNotFound();
  // A file of another project is denied like any other: ids are unguessable (DESIGN §4).
  if (!canAccessFile({ principal, file, action })) throw accessDenied();
  return file;
}
