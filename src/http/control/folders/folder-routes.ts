import type { RouteRegistrar } from '../../route-context.ts';
import { browseFolder } from './browse-folder.ts';
import { sharedWithMe } from './shared-with-me.ts';

/** Folders (issue 36): browsing one owner's tree of files, and what others shared with the caller. */
export const folderRoutes: RouteRegistrar[] = [browseFolder, sharedWithMe];
