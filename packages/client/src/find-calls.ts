import type { ArchiveLink, Call, FileRecord, SearchPage, SharedPage } from './api-shapes.ts';

/** How the client sends a call (its transport: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/** A customData value searched for: equality on a top-level key, by the value's JSON form. */
export type CustomDataValue = string | number | boolean;

/**
 * What search() looks for; every filter given must hold (AND). `name`: a case-insensitive
 * substring of the file's last path segment (3 characters at least); `contentType`: exact or
 * `image/*`; `filePath`: a path prefix; `scope`: `mine`, `shared` with the caller (by user,
 * role or folder share) or `all` (both, the default). Sorted by `sort` (createdAt) in `order` (desc).
 */
export type SearchFilters = {
  name?: string;
  contentType?: string;
  customData?: Record<string, CustomDataValue>;
  createdAfter?: Date | string;
  createdBefore?: Date | string;
  minSize?: number;
  maxSize?: number;
  sort?: 'createdAt' | 'name' | 'size';
  order?: 'asc' | 'desc';
  scope?: 'mine' | 'shared' | 'all';
  filePath?: string;
  pageSize?: number;
  /** A page's `nextCursor`: the page after it. */
  cursor?: string;
};

/** What archive() zips: files by id (named by their paths), or an owner's folder (names relative to it). */
export type ArchiveSelection = { fileIds: string[] } | { folder: { owner?: string; path: string } };

export type ArchiveOptions = { expiresInSeconds?: number };

/*
 * Search and archives (issue 40): GET /api/v1/file with filters, POST /api/v1/archives. Kept
 * here so that index.ts stays the client's outline.
 */

export const searchFiles = (send: Send, filters: SearchFilters) =>
  send<SearchPage>({ method: 'GET', path: '/api/v1/file', query: toSearchQuery(filters), auth: true });

/** Every match, a page at a time, following `nextCursor` until the server gives none. */
export async function* searchAllFiles(send: Send, filters: SearchFilters): AsyncGenerator<FileRecord> {
  let cursor = filters.cursor;
  do {
    const page = await searchFiles(send, { ...filters, cursor });
    yield* page.docs;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** Every file of a page-numbered listing, until its last page. */
export async function* listAllFiles(
  listPage: (pageNumber: number) => Promise<{ docs: FileRecord[]; pages: number }>,
): AsyncGenerator<FileRecord> {
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await listPage(pageNumber);
    yield* page.docs;
    if (page.docs.length === 0 || pageNumber >= page.pages) return;
  }
}

export const createArchive = (send: Send, selection: ArchiveSelection, options: ArchiveOptions) =>
  send<ArchiveLink>({
    method: 'POST',
    path: '/api/v1/archives',
    body: { ...selection, ...options },
    auth: true,
  });

/** The filters as the API's query parameters; customData as one `customData.<key>` each. */
export function toSearchQuery(filters: SearchFilters): Record<string, string | number | undefined> {
  const { customData = {}, createdAfter, createdBefore, ...rest } = filters;
  const query: Record<string, string | number | undefined> = {
    ...rest,
    // Named always: a filePath alone would be the plain listing, which pages by number (no nextCursor).
    sort: rest.sort ?? 'createdAt',
    createdAfter: toInstant(createdAfter),
    createdBefore: toInstant(createdBefore),
  };
  for (const [key, value] of Object.entries(customData)) query[`customData.${key}`] = toCustomDataText(value);
  return query;
}

const toInstant = (value: Date | string | undefined) => (value instanceof Date ? value.toISOString() : value);

/**
 * The server reads a value that is a JSON number or boolean literal as that number or boolean,
 * a JSON string literal (quoted) as that string, and anything else as the text itself. So a
 * string that would read as something else (`"3"`, `"true"`, one that starts with a quote) is
 * sent quoted, and every other string bare, as a person would type it.
 */
export function toCustomDataText(value: CustomDataValue): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return readsAsOtherThanText(value) ? JSON.stringify(value) : value;
}

function readsAsOtherThanText(text: string): boolean {
  if (text.startsWith('"')) return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'number' || typeof parsed === 'boolean';
  } catch {
    return false;
  }
}

/**
 * One page of what other users shared with the caller (by id or by role), newest share first:
 * files (their records) and folders (owner, path, counts). Pass `nextCursor` as `cursor` for
 * the next page (null on the last).
 */
export function listShared(call: Send, options: { pageSize?: number; cursor?: string }): Promise<SharedPage> {
  return call({ method: 'GET', path: '/api/v1/shared', query: options, auth: true });
}
