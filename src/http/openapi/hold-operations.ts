import { fileRead, type Operation } from './operation.ts';

/** Legal holds (issue 38, item 4) and the release of a quarantined file (issue 42): project admins only. */
export const holdOperations: Record<string, Operation> = {
  'POST /api/v1/file/:fileId/hold': {
    operationId: 'holdFile',
    description:
      "Puts a verified file on a legal hold (`reason`, 1 to 500 characters): until it is lifted, no one may delete, purge, replace (a new or restored version, a version delete) or move it, nor move or delete a folder holding it (409 FILE_ON_HOLD); its versions are never pruned. Copies are allowed (a copy is not held). Holding a held file replaces its reason. Project admins only (an admin's token or a service key): 403 ACCESS_DENIED for others, the file's creator included. Event: file.held.",
    access: 'admin',
    errors: [...fileRead, 'FILE_NOT_VERIFIED'],
    success: { status: 200, component: 'FileRecord' },
  },
  'DELETE /api/v1/file/:fileId/hold': {
    operationId: 'releaseFile',
    description:
      "Lifts the file's legal hold; a file not held stays as it is. Project admins only. Event: file.released (only when a hold was lifted).",
    access: 'admin',
    errors: fileRead,
    success: { status: 204, description: 'The file is not on hold' },
  },
  'POST /api/v1/file/:fileId/quarantine/release': {
    operationId: 'releaseQuarantine',
    description:
      "Releases a file a re-scan (`coffer scan`) quarantined: its bytes are readable again (while quarantined every read of them answers 451 FILE_QUARANTINED, admins' too). Links issued before the quarantine stay dead: ask for new ones. A file not quarantined stays as it is. Project admins only (an admin's token or a service key): 403 ACCESS_DENIED for others, the file's creator included. Event: file.quarantine_released (only when a quarantine was lifted).",
    access: 'admin',
    errors: fileRead,
    success: { status: 200, component: 'FileRecord' },
  },
};
