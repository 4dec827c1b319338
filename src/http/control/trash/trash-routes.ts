import type { RouteRegistrar } from '../../route-context.ts';
import { emptyTrash } from './empty-trash.ts';
import { listTrash } from './list-trash.ts';
import { purgeTrashed } from './purge-trashed.ts';
import { restoreTrashed } from './restore-trashed.ts';

/** The trash (issue 38, item 3): a user's deleted files, listed, restored and purged. */
export const trashRoutes: RouteRegistrar[] = [listTrash, emptyTrash, restoreTrashed, purgeTrashed];
