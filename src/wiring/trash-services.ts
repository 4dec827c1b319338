import { toQuotaLimits } from '../domain/files/upload-limits.ts';
import type { ProjectSettings } from '../domain/identity/project-settings.ts';
import { Trash } from '../domain/trash/trash.ts';
import { TrashPurging } from '../domain/trash/trash-purging.ts';
import type { WiringContext } from './wiring-context.ts';

/** The trash (issue 38): its pages, restore and purge, the cap and the retention sweep. */
export type TrashServices = {
  trash: Trash;
  /** Purges by owners, admins, the cap and `serve`'s retention sweep. */
  trashPurging: TrashPurging;
};

/**
 * Purging over the context's stores (stateless: file and folder deletes build one for the cap
 * too). `settingsOf` is given, not built here: file-services.ts, which builds it, imports this.
 */
export function buildTrashPurging(
  context: WiringContext,
  settingsOf: (projectId: string) => Promise<ProjectSettings>,
): TrashPurging {
  const { repositories, blobs, clock } = context;
  return new TrashPurging({ trash: repositories.trash, files: repositories.files, blobs, clock, settingsOf });
}

export function buildTrashServices(
  context: WiringContext,
  settingsOf: (projectId: string) => Promise<ProjectSettings>,
): TrashServices {
  const { repositories, blobs, clock } = context;
  const trashPurging = buildTrashPurging(context, settingsOf);
  const trash = new Trash({
    trash: repositories.trash,
    blobs,
    clock,
    purging: trashPurging,
    limits: { quotasOf: async (projectId) => toQuotaLimits(await settingsOf(projectId)) },
  });
  return { trash, trashPurging };
}
