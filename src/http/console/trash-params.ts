import { Type } from '@sinclair/typebox';
import type { TrashItem } from '../../domain/trash/trash.ts';
import type { Services } from '../../services.ts';
import { toFileViewsWithPeople } from './file-people.ts';

/** The :projectId and :fileId of the console's trash routes (a trashed file keeps its id). */
export const trashedParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  fileId: Type.String({ maxLength: 64 }),
});

/**
 * Trashed files as the console shows them: the file view with `people` (as the files page's),
 * when and by whom each was trashed, what it keeps in the store and when the sweep purges it.
 */
export async function toTrashViews(services: Services, projectId: string, items: TrashItem[]) {
  const views = await toFileViewsWithPeople(
    services,
    projectId,
    items.map((item) => item.file),
  );
  return items.map((item, index) => ({
    ...views[index]!,
    trashedAt: item.trashedAt.toISOString(),
    trashedBy: item.trashedBy,
    heldBytes: item.heldBytes,
    purgeAt: item.purgeAt.toISOString(),
  }));
}
