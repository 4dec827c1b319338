/** Files and bytes held (issue 10, item 10): verified content, pending uploads and declared lengths. */
export type StorageUsage = { files: number; bytes: number };

/** The quotas of a project's settings (null: none); file rows that grow usage past one are refused. */
export type QuotaLimits = {
  userQuotaBytes: number | null;
  userQuotaFiles: number | null;
  projectQuotaBytes: number | null;
  projectQuotaFiles: number | null;
};

/** Usage as the database keeps it, in the same transactions as the file rows it counts. */
export interface StorageUsageRepository {
  /** The usage of one user and of their project: two primary-key reads, never a scan. */
  find(owner: { projectId: string; userId: string }): Promise<{ user: StorageUsage; project: StorageUsage }>;
  /** Every project's usage: a primary-key read per project, never a read of their users. */
  listProjects(): Promise<Array<StorageUsage & { projectId: string; name: string }>>;
  /** The usage of some users of a project (a primary-key read each); users with none are left out. */
  forUsers(projectId: string, userIds: string[]): Promise<Map<string, StorageUsage>>;
  /** A project's heaviest users, most bytes first (an index range: `limit` rows read). */
  topUsers(
    projectId: string,
    limit: number,
  ): Promise<Array<StorageUsage & { userId: string; email: string }>>;
}
