import { validationFailed } from '../../errors/errors.ts';
import type { TrashPosition } from './trash-repository.ts';

/**
 * The cursor of the next trash page: the base64url of the last item's (trashedAt, id), opaque to
 * clients. A position rather than an offset, so files trashed or restored since move no page.
 */
export function toTrashCursor(position: TrashPosition): string {
  return Buffer.from(JSON.stringify([position.trashedAt, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; VALIDATION_FAILED for anything no page handed out. */
export function fromTrashCursor(cursor: string): TrashPosition {
  let tuple: unknown;
  try {
    tuple = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    tuple = undefined;
  }
  const [trashedAt, id] = Array.isArray(tuple) && tuple.length === 2 ? tuple : [];
  const valid =
    Number.isSafeInteger(trashedAt) &&
    (trashedAt as number) >= 0 &&
    typeof id === 'string' &&
    id !== '' &&
    id.length <= 64;
  // Only what toTrashCursor writes: any other spelling of the same tuple is refused too.
  if (!valid || toTrashCursor({ trashedAt: trashedAt as number, id: id as string }) !== cursor)
    throw validationFailed('cursor is not one a page answered');
  return { trashedAt: trashedAt as number, id: id as string };
}
