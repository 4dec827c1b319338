/** A file's bytes to remove with it: every blob version its record names. */
export type FileBlobs = { fileId: string; blobVersions: string[] };

/**
 * What `coffer project delete` removes, a bounded batch at a time, so that it can stop at any
 * point (a crash, a kill) and be run again to finish.
 */
export interface ProjectDeletionRepository {
  /** How much the project holds (what the confirmation names). */
  count(projectId: string): Promise<{ users: number; files: number }>;
  /**
   * Deletes every app credential and service key: from the next access-epoch read on, no call
   * reaches the project. Answers how many app credentials went.
   */
  deleteAppCredentials(projectId: string): Promise<number>;
  /** Up to `limit` of the project's files and the blob versions they name. */
  findFiles(projectId: string, limit: number): Promise<FileBlobs[]>;
  /** Deletes these file records with their ACL entries. */
  deleteFiles(fileIds: readonly string[]): Promise<number>;
  /** Deletes up to `limit` sessions (refresh-token families, their tokens with them). */
  deleteSessions(projectId: string, limit: number): Promise<number>;
  /** Deletes up to `limit` users. */
  deleteUsers(projectId: string, limit: number): Promise<number>;
  /** Deletes the project row once nothing refers to it; false when there is no such project. */
  deleteProject(projectId: string): Promise<boolean>;
}
