import { canUseFileResumeStore, fileResumeStore } from './file-resume-store.ts';
import {
  findLocalStorage,
  memoryResumeStore,
  type ResumeStore,
  webStorageResumeStore,
} from './resume-store.ts';

/**
 * Where a client keeps resumable uploads' state unless told (issue 35, item 6): files in
 * `~/.coffer/resumable-uploads/` in Node, so uploads outlive a restart of the app; a
 * browser's `localStorage`, so they outlive a reload; else (no file system, no storage) memory.
 */
export function defaultResumeStore(): ResumeStore {
  if (canUseFileResumeStore()) return fileResumeStore();
  const storage = findLocalStorage();
  return storage ? webStorageResumeStore(storage) : memoryResumeStore();
}
