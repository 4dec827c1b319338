import type { FileRecord } from './file-record.ts';

/**
 * Where a file's bytes live: derived from server ids only, never from the user's filePath. A
 * copy's bytes live under its source's key (`blobFileId`).
 */
export function toStorageKey(
  file: Pick<FileRecord, 'projectId' | 'id'> & { blobFileId?: string | null },
): string {
  return `${file.projectId}/${file.blobFileId ?? file.id}`;
}
