import type { FileRecord } from './file-record.ts';

/** The orders a search answers in (issue 40); each has an index per set that can walk it. */
export const searchSorts = ['createdAt', 'name', 'size'] as const;
export type SearchSort = (typeof searchSorts)[number];
export type SearchOrder = 'asc' | 'desc';
/** mine: the caller's own files; shared: shared with them (user, role or folder share); all: both. */
export const searchScopes = ['mine', 'shared', 'all'] as const;
export type SearchScope = (typeof searchScopes)[number];

/** A customData value as its JSON form tells: a string, a number or a boolean. */
export type CustomValue = string | number | boolean;

/** The filters of a search, all ANDed; absent ones do not filter. */
export type SearchFilters = {
  /** A substring of the name (the path's last segment), case-insensitive, ≥ 3 characters. */
  name?: string;
  /** `image/*` is a prefix (`image/`); anything else is the exact type. */
  contentType?: { exact: string } | { prefix: string };
  /** Equality on top-level keys of customData, one entry per key. */
  customData: { key: string; value: CustomValue }[];
  /** Unix ms, exclusive on both ends. */
  createdAfter?: number;
  createdBefore?: number;
  /** Bytes, inclusive on both ends. */
  minSize?: number;
  maxSize?: number;
  /** The filePath prefix (literal). */
  filePathPrefix?: string;
};

/** Where a page ends: the last row's sort key and id (the next page starts after it). */
export type SearchPosition = { key: number | string; id: string };

/** One search: who reads, what, in which order, from where. */
export type FileSearchQuery = {
  projectId: string;
  readerId: string;
  readerRole: string;
  isAdmin: boolean;
  filters: SearchFilters;
  sort: SearchSort;
  order: SearchOrder;
  scope: SearchScope;
  limit: number;
  offset: number;
  after?: SearchPosition;
};

/**
 * A page of a search. `next`: where the next page starts, when more may follow — after the
 * page's last file, or, when the examination budget ran out before the page filled, after the
 * last file examined (so a page may hold fewer files than asked, even none, and still go on).
 */
export type FileSearchPage = { files: FileRecord[]; next?: SearchPosition };

/** The search half of FileRepository (persistence/repositories/files/search-files.ts). */
export interface FileSearchRepository {
  search(query: FileSearchQuery): Promise<FileSearchPage>;
}
