import { type RawBuilder, sql } from 'kysely';
import type { CustomValue, FileSearchQuery, SearchFilters } from '../../../domain/files/file-search.ts';
import { fileNameSql } from '../../migrations/search-indexes.ts';
import { nextPrefix } from './path-prefix.ts';

/** SQL pieces of a search over `files f` (search-files.ts), one dialect's spelling each. */
export type Dialect = { sqlite: boolean };

/**
 * The sort key of `files f`, spelled as the index on it is (migrations/search-indexes.ts), so
 * a planner walks the index rather than sorting. Names compare in code-point order on both.
 */
export function sortKey(query: FileSearchQuery, { sqlite }: Dialect): RawBuilder<unknown> {
  if (query.sort === 'size') return sql`f.content_size_bytes`;
  if (query.sort === 'name') return sql.raw(sqlite ? fileNameOf('f') : `(${fileNameOf('f')}) collate "C"`);
  return sql`f.created_at`;
}

/** fileNameSql over the alias `f`. */
export const fileNameOf = (alias: string) =>
  fileNameSql.replace('file_path', `${alias}.file_path`).replace('folder_path', `${alias}.folder_path`);

/**
 * An id column as the search orders ids: in code-point (byte) order on both dialects, as the
 * merge of the walk's sets compares them (PostgreSQL's database collation may fold case).
 */
export function idOf(column: string, { sqlite }: Dialect): RawBuilder<unknown> {
  return sql.raw(sqlite ? column : `${column} collate "C"`);
}

/** `key dir, id dir` for the query's order. */
export function orderBy(key: RawBuilder<unknown>, id: RawBuilder<unknown>, query: FileSearchQuery) {
  const direction = sql.raw(query.order === 'asc' ? 'asc' : 'desc');
  return sql`${key} ${direction}, ${id} ${direction}`;
}

/** Rows strictly after the cursor's position in the query's order (keyset), or true. */
export function afterCursor(key: RawBuilder<unknown>, id: RawBuilder<unknown>, query: FileSearchQuery) {
  if (query.after === undefined) return sql`1 = 1`;
  const comparison = sql.raw(query.order === 'asc' ? '>' : '<');
  const value = query.sort === 'name' ? sql`${query.after.key}` : sql`${Number(query.after.key)}`;
  return sql`(${key} ${comparison} ${value} or (${key} = ${value} and ${id} ${comparison} ${query.after.id}))`;
}

/** `%text%` for LIKE with `\` as its escape: the name filter is a literal substring. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Every filter of the search as one condition on `files f`: the exact test each candidate
 * passes, whichever index found it. Names: LIKE (case-insensitive for ASCII letters on
 * SQLite; lower() on both sides on PostgreSQL, which folds every letter its locale knows).
 */
export function matchesFilters(filters: SearchFilters, query: FileSearchQuery, dialect: Dialect) {
  const terms: RawBuilder<unknown>[] = [];
  if (filters.name !== undefined) {
    const pattern = containsPattern(filters.name);
    terms.push(
      dialect.sqlite
        ? sql`${sql.raw(fileNameOf('f'))} like ${pattern} escape '\\'`
        : sql`lower(${sql.raw(fileNameOf('f'))}) like lower(${pattern}) escape '\\'`,
    );
  }
  const type = filters.contentType;
  if (type !== undefined && 'exact' in type) terms.push(sql`f.content_type = ${type.exact}`);
  if (type !== undefined && 'prefix' in type)
    terms.push(sql`f.content_type >= ${type.prefix} and f.content_type < ${nextPrefix(type.prefix) ?? ''}`);
  if (filters.createdAfter !== undefined) terms.push(sql`f.created_at > ${filters.createdAfter}`);
  if (filters.createdBefore !== undefined) terms.push(sql`f.created_at < ${filters.createdBefore}`);
  if (filters.minSize !== undefined) terms.push(sql`f.content_size_bytes >= ${filters.minSize}`);
  if (filters.maxSize !== undefined) terms.push(sql`f.content_size_bytes <= ${filters.maxSize}`);
  // Files without a size (not verified yet) have no place in a size order.
  if (query.sort === 'size') terms.push(sql`f.content_size_bytes is not null`);
  if (filters.filePathPrefix !== undefined)
    terms.push(
      sql`substr(f.file_path, 1, length(cast(${filters.filePathPrefix} as text))) = ${filters.filePathPrefix}`,
    );
  // A scalar subquery, not EXISTS: PostgreSQL may run an EXISTS as a hashed subplan, reading
  // every row of the key (a seventh of a million files: 280 ms) to test 84; this one is a
  // primary-key point per file tested ((file_id, key): at most one row).
  for (const { key, value } of filters.customData)
    terms.push(sql`(select 1 from file_custom_values v
      where v.file_id = f.id and v.key = ${key} and ${customValueIs(value)}) = 1`);
  return terms.length === 0 ? sql`1 = 1` : sql.join(terms, sql` and `);
}

/** The side table's row holds `value` (by its JSON type): strings, booleans, numbers. */
export function customValueIs(value: CustomValue) {
  if (typeof value === 'number')
    return sql`v.kind = 'n' and v.value_text is null and v.value_number = ${value}`;
  if (typeof value === 'boolean') return sql`v.kind = 'b' and v.value_text = ${String(value)}`;
  return sql`v.kind = 's' and v.value_text = ${value}`;
}

/**
 * Whether the reader may list `files f` in the query's scope: their own (mine, all), shared
 * with them by an ACL entry past the creator's own or a share of one of its folders (shared,
 * all; never their own under shared); everything of the project for an admin under all.
 * Each test is a few primary-key points: file_acl (file, scope, identifier) and folder_shares
 * (project, owner, …) of the file's owner.
 */
export function isVisible(query: FileSearchQuery, { sqlite }: Dialect) {
  if (query.isAdmin && query.scope === 'all') return sql`1 = 1`;
  const own = sql`f.creator_id = ${query.readerId}`;
  if (query.scope === 'mine') return own;
  const grantee = (alias: string) => sql.raw(`(${alias}.scope = 'user' and ${alias}.identifier = `);
  // Scalar subqueries with LIMIT 1 rather than EXISTS, which PostgreSQL may hash (see
  // matchesFilters): a few primary-key points per file.
  const acl = sql`(select 1 from file_acl a where a.file_id = f.id and a.position > 0
    and (${grantee('a')}${query.readerId}) or (a.scope = 'role' and a.identifier = ${query.readerRole})) limit 1) = 1`;
  const path = sqlite
    ? sql`substr(f.file_path, 1, length(s.path))`
    : sql`substr(f.file_path, 1, length(s.path)) collate "C"`;
  const folder = sql`(select 1 from folder_shares s where s.project_id = f.project_id
    and s.owner_id = f.creator_id and ${path} = s.path
    and (${grantee('s')}${query.readerId}) or (s.scope = 'role' and s.identifier = ${query.readerRole})) limit 1) = 1`;
  if (query.scope === 'shared') return sql`(f.creator_id <> ${query.readerId} and (${acl} or ${folder}))`;
  return sql`(${own} or ${acl} or ${folder})`;
}
