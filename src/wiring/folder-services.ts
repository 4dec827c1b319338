import { FolderBrowsing } from '../domain/folders/folder-browsing.ts';
import { SharedWithMe } from '../domain/folders/shared-with-me.ts';
import type { WiringContext } from './wiring-context.ts';

/** Folders (issue 36): one owner's files seen as a tree, with each subtree's counts. */
export type FolderServices = {
  /** Browsing a folder: its subfolders and a page of its files. */
  folderBrowsing: FolderBrowsing;
  /** The files and folders other users shared with the caller, newest first. */
  sharedWithMe: SharedWithMe;
};

export function buildFolderServices({ repositories }: WiringContext): FolderServices {
  return {
    folderBrowsing: new FolderBrowsing({ folders: repositories.folders, shares: repositories.folderShares }),
    sharedWithMe: new SharedWithMe({ shares: repositories.sharedWithMe }),
  };
}
