import { fileOnHold, folderNotFound, folderTooLarge } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { FileRepository } from '../files/file-repository.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { FolderChangeRepository, FolderRefusal } from './folder-change-repository.ts';

/** What folder moves and deletes work on. */
export type FolderChangeOptions = {
  folders: FolderChangeRepository;
  /** Whether a deleted file's bytes are still served by a copy (file-organizer.ts). */
  files: Pick<FileRepository, 'isBlobReferenced'>;
  blobs: BlobStore;
  clock: Clock;
  /** The project's settings (maxFolderOperationFiles), cached as the file services cache them. */
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/** The error of a folder change that changed nothing. */
export function toRefusalError(refusal: FolderRefusal, maxFiles: number) {
  if (refusal.refused === 'held') return fileOnHold(refusal.filePath);
  return refusal.refused === 'empty' ? folderNotFound() : folderTooLarge(refusal.fileCount, maxFiles);
}
