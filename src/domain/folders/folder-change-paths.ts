import { invalidFilePath, validationFailed } from '../../errors/errors.ts';
import { validateFilePath } from '../files/validate-file-path.ts';

/**
 * A folder of a move or a delete (issue 36): a `/`-ended path whose part before the last `/`
 * follows the filePath rules (validate-file-path.ts). The root ('') is no such folder: a move
 * or delete names what it changes.
 */
export function validateFolderPath(path: string, field: string): string {
  if (!path.endsWith('/')) throw invalidFilePath(`${field} must end in / (a folder)`);
  validateFilePath(path.slice(0, -1));
  return path;
}

/** Whether `path` lies under `folder` (or is it): both `/`-ended. */
export function isInFolder(path: string, folder: string): boolean {
  return path.startsWith(folder);
}

/** A move's two folders: `to` may not be `from` or lie inside it (it would move into itself). */
export function validateFolderMove(request: { from: string; to: string }): { from: string; to: string } {
  const from = validateFolderPath(request.from, 'from');
  const to = validateFolderPath(request.to, 'to');
  if (isInFolder(to, from)) throw validationFailed('to may not be from or lie inside it');
  return { from, to };
}
