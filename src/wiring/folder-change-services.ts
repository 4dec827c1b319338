import { FolderDeletion } from '../domain/folders/folder-deletion.ts';
import { FolderMoves } from '../domain/folders/folder-moves.ts';
import { FolderSharing } from '../domain/folders/folder-sharing.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import { projectSettingsReader } from './file-services.ts';
import { buildTrashPurging } from './trash-services.ts';
import type { WiringContext } from './wiring-context.ts';

/** Moving, deleting and sharing whole folders (issue 36). */
export type FolderChangeServices = {
  folderMoves: FolderMoves;
  folderDeletion: FolderDeletion;
  /** Sharing whole folders: their files, present and future. */
  folderSharing: FolderSharing;
};

export function buildFolderChangeServices(context: WiringContext): FolderChangeServices {
  const { repositories, blobs, clock } = context;
  const options = {
    folders: repositories.folderChanges,
    files: repositories.files,
    blobs,
    clock,
    settingsOf: projectSettingsReader(context),
  };
  const folderSharing = new FolderSharing({
    shares: repositories.folderShares,
    users: repositories.users,
    // The same hourly bucket as file shares by email (file-services.ts): one budget per user.
    emailShares: {
      buckets: new TokenBuckets(repositories.rateLimits),
      perUser: toBucketRule(context.config.emailSharesPerUserPerHour),
    },
    clock,
    settingsOf: options.settingsOf,
  });
  return {
    folderMoves: new FolderMoves(options),
    folderDeletion: new FolderDeletion({
      ...options,
      purging: buildTrashPurging(context, options.settingsOf),
    }),
    folderSharing,
  };
}
