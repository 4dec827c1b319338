import { deleteFolder } from './delete-folder.ts';
import { moveFolder } from './move-folder.ts';

/** The /api/v1 routes that move and delete whole folders (issue 36). */
export const folderChangeRoutes = [moveFolder, deleteFolder];
