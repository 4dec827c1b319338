import { deleteFolder } from './delete-folder.ts';
import { listFolderShares } from './folder-shares.ts';
import { moveFolder } from './move-folder.ts';
import { shareFolder } from './share-folder.ts';

/** The /api/v1 routes that move, delete and share whole folders (issue 36). */
export const folderChangeRoutes = [moveFolder, deleteFolder, shareFolder, listFolderShares];
