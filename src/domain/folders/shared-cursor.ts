import { validationFailed } from '../../errors/errors.ts';
import type { SharedItem, SharedPosition } from './shared-with-me-repository.ts';

/** The position of a share, as the next page starts after it. */
export function toSharedPosition(item: SharedItem): SharedPosition {
  const sharedAt = item.sharedAt.getTime();
  return item.kind === 'file'
    ? { kind: 'file', scope: item.scope, sharedAt, fileId: item.file.id }
    : { kind: 'folder', scope: item.scope, sharedAt, ownerId: item.ownerId, path: item.path };
}

/**
 * The cursor of the next page: the base64url of the last share's position (opaque to clients).
 * A position rather than an offset, so shares added since move no page.
 */
export function toSharedCursor(position: SharedPosition): string {
  const tuple =
    position.kind === 'file'
      ? [position.sharedAt, 'file', position.scope, position.fileId]
      : [position.sharedAt, 'folder', position.scope, position.ownerId, position.path];
  return Buffer.from(JSON.stringify(tuple), 'utf8').toString('base64url');
}

/** The position a cursor names; VALIDATION_FAILED for anything no page handed out. */
export function fromSharedCursor(cursor: string): SharedPosition {
  const position = parse(cursor);
  // Only what toSharedCursor writes: any other spelling of the same tuple is refused too.
  if (position === undefined || toSharedCursor(position) !== cursor)
    throw validationFailed('cursor is not one a page answered');
  return position;
}

function parse(cursor: string): SharedPosition | undefined {
  let tuple: unknown;
  try {
    tuple = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(tuple)) return undefined;
  const [sharedAt, kind, scope, ...key] = tuple as unknown[];
  if (!Number.isSafeInteger(sharedAt) || (sharedAt as number) < 0) return undefined;
  if (scope !== 'user' && scope !== 'role') return undefined;
  if (!key.every((part) => typeof part === 'string' && part.length <= 1025)) return undefined;
  const [first, second] = key as string[];
  if (kind === 'file' && key.length === 1 && first !== '')
    return { kind, scope, sharedAt: sharedAt as number, fileId: first! };
  if (kind === 'folder' && key.length === 2 && first !== '')
    return { kind, scope, sharedAt: sharedAt as number, ownerId: first!, path: second! };
  return undefined;
}
