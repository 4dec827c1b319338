import type { RouteRegistrar } from '../../route-context.ts';
import { browseFolder } from './browse-folder.ts';

/** Folders (issue 36): browsing one owner's tree of files. */
export const folderRoutes: RouteRegistrar[] = [browseFolder];
