import type { Operation } from './operation.ts';

/** Moving and deleting whole folders (issue 36): the owner, or the project's admins for any owner. */
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
      'Deletes every file of the owner (the caller unless `owner` names another, which needs the admin role) under `path`, in one transaction: their quota is freed, their links stop, their bytes are removed after the commit. Events: file.deleted per file and folder.deleted.',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_FILE_PATH', 'FOLDER_NOT_FOUND', 'FOLDER_TOO_LARGE'],
    success: { status: 200, description: 'How many files and bytes went' },
  },
};
