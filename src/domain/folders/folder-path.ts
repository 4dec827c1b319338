import { validationFailed } from '../../errors/errors.ts';
import { validateFilePath } from '../files/validate-file-path.ts';

/**
 * A folder path as the API takes it: '' (or absent) is the owner's root; any other path is
 * a filePath prefix and gets its closing `/` when it lacks one (`photos` → `photos/`), so a
 * folder can be named as a user writes it. Its segments follow the filePath rules.
 */
export function toFolderPath(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  const path = text.endsWith('/') ? text : `${text}/`;
  // The folder without its closing slash is a valid filePath exactly when its segments are.
  validateFilePath(path.slice(0, -1));
  return path;
}

/** A folder's name: its last segment ('' for the root). */
export function toFolderName(path: string): string {
  const trimmed = path.slice(0, -1);
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * The cursor of the next page: the last file path of this one, base64url (opaque to
 * clients). A position rather than an offset, so files added before it move no page.
 */
export function toFolderCursor(filePath: string): string {
  return Buffer.from(filePath, 'utf8').toString('base64url');
}

/** The file path a cursor names; VALIDATION_FAILED for anything no page handed out. */
export function fromFolderCursor(cursor: string): string {
  const filePath = Buffer.from(cursor, 'base64url').toString('utf8');
  if (filePath === '' || toFolderCursor(filePath) !== cursor)
    throw validationFailed('cursor is not one a page answered');
  return filePath;
}
