import type { Operation } from './operation.ts';

/** Moving, deleting and sharing whole folders, and what is shared with the caller (issue 36): the owner, or the project's admins for any owner. */
export const folderChangeOperations: Record<string, Operation> = {
  'POST /api/v1/folders/move': {
    operationId: 'moveFolder',
    description:
      "Moves every file of the owner (the caller unless `owner` names another, which needs the admin role) under `from` to the same place under `to`, in one transaction: ids, ACLs, customData, bytes and issued links are kept, each file's version moves by one. If any target path is taken, nothing moves (409 FOLDER_CONFLICT names the first clash). Events: file.updated per file and folder.moved.",
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_FILE_PATH',
      'FOLDER_NOT_FOUND',
      'FOLDER_CONFLICT',
      'FOLDER_TOO_LARGE',
      'STORAGE_FULL',
    ],
    success: { status: 200, description: 'How many files moved' },
  },
  'POST /api/v1/folders/delete': {
    operationId: 'deleteFolder',
    description:
      "Deletes every file of the owner (the caller unless `owner` names another, which needs the admin role) under `path`, in one transaction: their quota is freed, their links stop. While the project keeps a trash (trashRetentionDays > 0) the verified files go to the owner's trash (each restores to its place, with its own ACL), else their bytes are removed after the commit; the folder's shares end either way. A held file under it: 409 FILE_ON_HOLD, nothing changes. Events: file.trashed (when trashed) and file.deleted per file, and folder.deleted.",
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_FILE_PATH',
      'FOLDER_NOT_FOUND',
      'FOLDER_TOO_LARGE',
      'FILE_ON_HOLD',
    ],
    success: { status: 200, description: 'How many files and bytes went' },
  },
  'POST /api/v1/folders/share': {
    operationId: 'shareFolder',
    description:
      "Shares the owner's folder (the caller's unless `owner` names another, which needs the admin role) with exactly one of `user` (id), `role` or `email`: the grantee may read every file under it, present and future (a file moved in gains the share, one moved out leaves it); each record lists it in `folderAcl`. Sharing twice changes nothing. A share by email is counted against the caller's hourly email shares, as for files. Answers the shares reaching the folder. Event: folder.shared.",
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_FILE_PATH',
      'FOLDER_NOT_FOUND',
      'FOLDER_TOO_LARGE',
      'USER_NOT_FOUND',
      'RATE_LIMITED',
    ],
    success: { status: 200, description: 'The shares reaching the folder' },
  },
  'POST /api/v1/folders/unshare': {
    operationId: 'unshareFolder',
    description:
      'Removes a folder share (one that is not there changes nothing) and, in the same commit, ends every download link issued for the files under the folder, on every node (as unsharing a file ends its links). Never refused for the size of the folder. Answers the shares still reaching the folder. Event: folder.unshared.',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_FILE_PATH', 'FOLDER_NOT_FOUND', 'USER_NOT_FOUND', 'RATE_LIMITED'],
    success: { status: 200, description: 'The shares still reaching the folder' },
  },
  'GET /api/v1/folders/shares': {
    operationId: 'listFolderShares',
    description:
      "The shares reaching one of the owner's folders: its own and its ancestors', the root first (the owner or the project's admins; anyone else gets 404 FOLDER_NOT_FOUND).",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_FILE_PATH', 'FOLDER_NOT_FOUND'],
    success: { status: 200, description: 'The shares' },
  },
  'GET /api/v1/shared': {
    operationId: 'listSharedWithMe',
    description:
      "The files and folders other users shared with the caller, by user id or by the caller's role, newest share first: one item per share (`kind` `file` with the record as the listing shows it, or `folder` with its owner, path and subtree counts, 0 while the owner has no file under it). The caller's own files and folders never appear. `pageSize` 1…100 (default 20); `nextCursor` continues the list. A service key is no user: 400.",
    access: 'user',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, description: 'A page of shares' },
  },
};
