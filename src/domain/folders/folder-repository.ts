import type { FileRecord } from '../files/file-record.ts';

/** A folder and its whole subtree's counts (kept by the database in each change's commit). */
export type FolderSummary = {
  /** `/`-ended; '' is the owner's root. */
  path: string;
  fileCount: number;
  totalBytes: number;
  updatedAt: Date;
};

/** One page of a folder: which folder, and from where its direct files continue. */
export type FolderPageQuery = {
  projectId: string;
  ownerId: string;
  /** `/`-ended, or '' for the root. */
  path: string;
  /** Direct files at most (one more is read to tell whether another page follows). */
  fileLimit: number;
  /** The page starts after this file path (in code-point order); absent: the first page. */
  afterFilePath?: string;
  /** Direct subfolders at most; 0 reads none (later pages). */
  subfolderLimit: number;
};

export type FolderPage = {
  folder: FolderSummary;
  /** Direct subfolders by path (code-point order), `subfolderLimit` at most. */
  subfolders: FolderSummary[];
  /** More direct subfolders exist than were read. */
  subfoldersTruncated: boolean;
  /** Direct files by path (code-point order). */
  files: FileRecord[];
  /** More direct files follow the last one. */
  hasMoreFiles: boolean;
};

/** Reading folders (issue 36): every read an index range, never a scan of a subtree. */
export interface FolderRepository {
  /** The page, or undefined when the owner has no file under the path. */
  findPage(query: FolderPageQuery): Promise<FolderPage | undefined>;
}
