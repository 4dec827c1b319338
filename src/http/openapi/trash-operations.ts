import type { Operation } from './operation.ts';

/** The trash (issue 38, item 3): a user's deleted files; the project's admins (and service keys) for any owner. */
export const trashOperations: Record<string, Operation> = {
  'GET /api/v1/trash': {
    operationId: 'listTrash',
    description:
      "The caller's trashed files (an admin's or service key's: `owner`'s), most recently trashed first: each the record as it was, with `trashedAt`, `trashedBy` and `purgeAt` (when the retention sweep purges it under the project's current trashRetentionDays). `pageSize` 1…100 (default 20); `nextCursor` continues the list.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
    success: { status: 200, description: 'A page of the trash' },
  },
  'POST /api/v1/trash/:fileId/restore': {
    operationId: 'restoreTrashed',
    description:
      "Puts a trashed file back (its owner or an admin) at the path it was deleted from, or at `filePath`: the same id, ACL, folder shares, customData and versions; links issued before it was trashed stay dead. 409 FILE_EXISTS when a live file holds the path (an abandoned upload there is replaced); 413 QUOTA_EXCEEDED when its bytes no longer fit the owner's quotas. Event: file.restored.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_FILE_PATH', 'FILE_NOT_FOUND', 'FILE_EXISTS', 'QUOTA_EXCEEDED'],
    success: { status: 200, component: 'FileRecord', description: 'The restored record' },
  },
  'DELETE /api/v1/trash/:fileId': {
    operationId: 'purgeTrashed',
    description:
      'Purges a trashed file now (its owner or an admin): its record and versions go, and its bytes unless a copy still serves them. Event: file.purged.',
    access: 'user',
    errors: ['FILE_NOT_FOUND', 'FILE_ON_HOLD'],
    success: { status: 204, description: 'Purged' },
  },
  'POST /api/v1/trash/empty': {
    operationId: 'emptyTrash',
    description:
      "Purges the caller's whole trash (an admin's or service key's: `owner`'s), in bounded batches, as DELETE /api/v1/trash/{fileId} does each file. Events: file.purged per file.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
    success: { status: 200, description: 'How many trashed files were purged' },
  },
};
