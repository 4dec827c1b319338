import { validationFailed } from '../../errors/errors.ts';
import {
  type CustomValue,
  type SearchFilters,
  type SearchOrder,
  type SearchScope,
  type SearchSort,
  searchScopes,
  searchSorts,
} from './file-search.ts';

/** The query parameters that make a listing a search (issue 40); customData.<key> too. */
export const searchParameters = [
  'name',
  'contentType',
  'createdAfter',
  'createdBefore',
  'minSize',
  'maxSize',
  'sort',
  'order',
  'scope',
  'cursor',
] as const;
export const customDataPrefix = 'customData.';
export const minNameLength = 3;
/** customData.<key> parameters one search takes: each is one more index probe per candidate. */
export const maxCustomDataFilters = 8;

export type SearchRequest = {
  filters: SearchFilters;
  sort: SearchSort;
  order: SearchOrder;
  scope: SearchScope;
  cursor?: string;
};

/** Whether any parameter asks for a search; none: the listing answers as before issue 40. */
export function isSearch(query: Record<string, unknown>): boolean {
  return Object.keys(query).some(
    (name) => (searchParameters as readonly string[]).includes(name) || name.startsWith(customDataPrefix),
  );
}

/** The search a listing's query parameters ask for; VALIDATION_FAILED naming the first bad one. */
export function toSearchRequest(query: Record<string, string | undefined>): SearchRequest {
  const filters: SearchFilters = { customData: [] };
  if (query.name !== undefined) {
    if ([...query.name].length < minNameLength || query.name.length > 255)
      throw validationFailed(`name must be ${minNameLength} to 255 characters (a substring of file names)`);
    filters.name = query.name;
  }
  if (query.contentType !== undefined) filters.contentType = toContentType(query.contentType);
  filters.createdAfter = toTime('createdAfter', query.createdAfter);
  filters.createdBefore = toTime('createdBefore', query.createdBefore);
  filters.minSize = toSize('minSize', query.minSize);
  filters.maxSize = toSize('maxSize', query.maxSize);
  for (const [name, text] of Object.entries(query)) {
    if (!name.startsWith(customDataPrefix) || text === undefined) continue;
    const key = name.slice(customDataPrefix.length);
    if (key === '' || key.length > 255)
      throw validationFailed('customData.<key> needs a key of 1 to 255 characters');
    filters.customData.push({ key, value: toCustomValue(text) });
  }
  if (filters.customData.length > maxCustomDataFilters)
    throw validationFailed(`at most ${maxCustomDataFilters} customData.<key> filters`);
  return {
    filters,
    sort: oneOf('sort', query.sort, searchSorts, 'createdAt'),
    order: oneOf('order', query.order, ['asc', 'desc'] as const, 'desc'),
    scope: oneOf('scope', query.scope, searchScopes, 'all'),
    cursor: query.cursor,
  };
}

/**
 * A value's JSON form decides its type: `3` and `true` are a number and a boolean, `"3"` (with
 * the quotes) the string 3, anything else the text as a string (`customData.album=summer`).
 */
export function toCustomValue(text: string): CustomValue {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text)))
    return Number(text);
  if (text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // Not a JSON string: the text as it is.
    }
  }
  return text;
}

function toContentType(text: string): { exact: string } | { prefix: string } {
  const match = /^([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/i.exec(text);
  if (!match) throw validationFailed('contentType must be a type/subtype or type/* (e.g. image/*)');
  return match[2] === '*' ? { prefix: `${match[1]}/` } : { exact: text };
}

/** ISO 8601 with a date and, optionally, a time and a zone (2026-01-31, 2026-01-31T12:00:00Z). */
function toTime(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  // A time without a zone is UTC, as a bare date is (Date.parse would read it as local time).
  const zoned = text.length > 10 && !/(Z|[+-]\d{2}:\d{2})$/.test(text) ? `${text}Z` : text;
  const ms = Date.parse(zoned);
  // Date.parse rolls 2026-02-31 over to March: the day must exist in its month.
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  const exists = Number.isFinite(day.getTime()) && day.toISOString().slice(0, 10) === text.slice(0, 10);
  if (!iso.test(text) || !exists || !Number.isFinite(ms))
    throw validationFailed(`${name} must be an ISO 8601 date or time`);
  return ms;
}

function toSize(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw validationFailed(`${name} must be a whole number of bytes`);
  return Number(text);
}

function oneOf<T extends string>(
  name: string,
  text: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    throw validationFailed(`${name} must be one of ${allowed.join(', ')}`);
  return text as T;
}
