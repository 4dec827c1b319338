import { isAppError, type StoreName } from '../errors/app-error.ts';
import { storageFull, unavailable } from '../errors/errors.ts';

// ENOSPC: the file system is full; EDQUOT: the user's disk quota is spent. Either way the
// write cannot succeed until space is freed, and the client should hear 507, not 500.
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/** Whether a file system call failed for lack of space. */
export function isNoSpaceError(error: unknown): boolean {
  return NO_SPACE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

// EIO: the device failed a read or write (bad sectors, a cut disk); EROFS: the file system went
// read-only (as ext4 does after such errors). Not the request's fault, and it may pass (a
// remount, a replaced disk): 503, as for a store out of reach.
const DEVICE_FAILED = new Set(['EIO', 'EROFS']);

/**
 * A full disk or quota becomes STORAGE_FULL (507), a failing device UNAVAILABLE (503);
 * anything else stays as it is.
 */
export function toFsStoreError(error: unknown, what: StoreName = 'blob store'): unknown {
  if (isAppError(error)) return error;
  if (isNoSpaceError(error)) return storageFull(what, error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  return DEVICE_FAILED.has(code) ? unavailable(what, error) : error;
}
