import { validationFailed } from '../../errors/errors.ts';
import type { SearchOrder, SearchPosition, SearchSort } from './file-search.ts';

/**
 * The cursor of a search's next page: base64url of `[1, sort, order, key, id]` (opaque to
 * clients). A position rather than an offset, so files added since move no page (keyset).
 * The sort and order are in it so a cursor is never read in another order than it was made in.
 */
export function toSearchCursor(sort: SearchSort, order: SearchOrder, position: SearchPosition): string {
  return Buffer.from(JSON.stringify([1, sort, order, position.key, position.id]), 'utf8').toString(
    'base64url',
  );
}

/** The position a cursor names for this sort and order; VALIDATION_FAILED for anything else. */
export function fromSearchCursor(cursor: string, sort: SearchSort, order: SearchOrder): SearchPosition {
  const position = parse(cursor, sort, order);
  // Only what toSearchCursor writes: any other spelling of the same tuple is refused too.
  if (position === undefined || toSearchCursor(sort, order, position) !== cursor)
    throw validationFailed('cursor is not one a page of this search (its sort and order) answered');
  return position;
}

function parse(cursor: string, sort: SearchSort, order: SearchOrder): SearchPosition | undefined {
  if (cursor.length > 2048) return undefined;
  let tuple: unknown;
  try {
    tuple = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(tuple) || tuple.length !== 5) return undefined;
  const [version, cursorSort, cursorOrder, key, id] = tuple as unknown[];
  if (version !== 1 || cursorSort !== sort || cursorOrder !== order) return undefined;
  if (typeof id !== 'string' || id === '' || id.length > 64) return undefined;
  const keyFits =
    sort === 'name'
      ? typeof key === 'string' && key.length <= 1024
      : Number.isSafeInteger(key) && (key as number) >= 0;
  return keyFits ? { key: key as number | string, id } : undefined;
}
