import { sql } from 'kysely';

/**
 * The paths that start with `prefix` lie in [prefix, the prefix with its last code point
 * raised by one) in code-point order: an index range on PostgreSQL, compared in the "C"
 * collation as its path indexes are (migrations/acl-listing-keys.ts). Its planner weighs the
 * range against the walk in time order from its statistics. SQLite has none and would take
 * the range even for a prefix that holds a million files, then sort them all (12 s for an
 * admin's `seed-` in bench/scale/explain-listing.ts): there the set is walked in time order
 * and each path tested, which stops as soon as the page is full. startsWith stays as the
 * exact test on both.
 */
export function inPathRange(prefix: string, upper: string | undefined, collation: 'C' | 'binary' = 'C') {
  // SQLite's default BINARY collation is already code-point order (and names no "C").
  const path = collation === 'C' ? sql`files.file_path collate "C"` : sql`files.file_path`;
  return upper === undefined
    ? sql<boolean>`${path} >= ${prefix}`
    : sql<boolean>`${path} >= ${prefix} and ${path} < ${upper}`;
}

/** The least string above every string that starts with `prefix`; undefined when there is none. */
export function nextPrefix(prefix: string): string | undefined {
  const codePoints = [...prefix].map((char) => char.codePointAt(0) ?? 0);
  while (codePoints.length > 0) {
    const last = codePoints.pop() ?? 0;
    if (last < 0x10ffff) {
      // Surrogates are no characters of their own: the next one past them is U+E000.
      codePoints.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return String.fromCodePoint(...codePoints);
    }
  }
  return undefined;
}

/**
 * A literal prefix test. LIKE would need its wildcards escaped and is case-insensitive on
 * SQLite; comparing the leading characters is exact on both dialects (both count characters,
 * not bytes, in substr and length).
 */
export function startsWith(prefix: string) {
  return sql<boolean>`substr(files.file_path, 1, length(cast(${prefix} as text))) = ${prefix}`;
}
