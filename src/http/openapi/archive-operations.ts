import { fileRead, type Operation } from './operation.ts';

/** Archives (issue 40): one ZIP of many files behind one signed link (the download is in data-plane-operations.ts). */
export const archiveOperations: Record<string, Operation> = {
  'POST /api/v1/archives': {
    operationId: 'createArchive',
    description:
      "One ZIP of a selection (`fileIds`, names: the files' paths) or of a folder (`folder: {owner?, path}`, every verified file of its subtree, names relative to it), behind a signed link (`expiresInSeconds` as a download link's). Access is checked for every file now, as for a download link of it: any refused refuses all, nothing is made, and the error names the refused ids in `details` (403 ACCESS_DENIED; 404 FILE_NOT_FOUND for unknown ids; 409 FILE_NOT_VERIFIED for a selected file not verified yet; 451 FILE_QUARANTINED for a quarantined one, which a folder's archive leaves out). Another owner's folder counts only files shared with the caller (ACL, role, folder share) or all for an admin; one of which the caller may read nothing is 404 FOLDER_NOT_FOUND. Names clash-free (\" (2)\" before the extension). The project's maxArchiveFiles and maxArchiveBytes bound it (413 ARCHIVE_TOO_LARGE). The answer gives the ZIP's exact length (archiveBytes); the link answers 410 ARCHIVE_STALE once a file is deleted, trashed, replaced or its links revoked.",
    access: 'user',
    errors: [
      ...fileRead,
      'FILE_NOT_VERIFIED',
      'FOLDER_NOT_FOUND',
      'INVALID_FILE_PATH',
      'ARCHIVE_TOO_LARGE',
      'FILE_QUARANTINED',
    ],
    success: { status: 201, component: 'CreatedArchive' },
  },
};
