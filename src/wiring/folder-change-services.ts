import { FolderDeletion } from '../domain/folders/folder-deletion.ts';
import { FolderMoves } from '../domain/folders/folder-moves.ts';
import { projectSettingsReader } from './file-services.ts';
import type { WiringContext } from './wiring-context.ts';

/** Moving and deleting whole folders (issue 36). */
export type FolderChangeServices = {
  folderMoves: FolderMoves;
  folderDeletion: FolderDeletion;
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
  return { folderMoves: new FolderMoves(options), folderDeletion: new FolderDeletion(options) };
}
