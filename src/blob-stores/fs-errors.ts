import { isAppError } from '../errors/app-error.ts';
import { storageFull } from '../errors/errors.ts';

// ENOSPC: the file system is full; EDQUOT: the user's disk quota is spent. Either way the
// write cannot succeed until space is freed, and the client should hear 507, not 500.
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/** Whether a file system call failed for lack of space. */
export function isNoSpaceError(error: unknown): boolean {
  return NO_SPACE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A full disk or quota becomes STORAGE_FULL (507); anything else stays as it is. */
export function toFsStoreError(error: unknown, what = 'blob store'): unknown {
  if (isAppError(error)) return error;
  return isNoSpaceError(error) ? storageFull(what, error) : error;
}
