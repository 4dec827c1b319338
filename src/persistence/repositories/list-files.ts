import { type Kysely, type SelectQueryBuilder, SqliteAdapter, sql } from 'kysely';
import type { FileListQuery, FileRecord } from '../../domain/ports.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { findAclsByFileIds, toFileRecord } from './file-rows.ts';

/**
 * How many pages past the requested one `total` counts exactly. Past that horizon `total` is
 * a lower bound (docs/decisions.md): counting further would cost the reader's whole set.
 */
export const pagesCountedAhead = 10;

type ListingKey = { created_at: number; id: string };

/**
 * The files a reader may list, newest first: the creator's own, those whose ACL names the
 * reader or the reader's role, or all of the project for its admins. permissionScope "*"
 * lets anyone holding the id read a file, but does not list it (DESIGN §4).
 *
 * The cost is bounded by the page, not by the project (issue 9): each of the reader's sets
 * is read from its own index in listing order (migrations/acl-listing-keys.ts), at most up
 * to the horizon (offset + page + pagesCountedAhead pages, plus one to tell whether more
 * follow); their union, deduplicated, yields the page and a count capped at the horizon.
 * A filePath prefix is tested on each entry walked, so a rare prefix walks the reader's
 * sets (the whole project for an admin) but never anybody else's.
 */
export async function listFiles(
  db: Kysely<DatabaseSchema>,
  query: FileListQuery,
): Promise<{ files: FileRecord[]; total: number }> {
  const horizon = query.offset + query.limit * (1 + pagesCountedAhead);
  const visible = visibleKeys(db, query, horizon + 1);
  const page = db
    .selectFrom(visible.as('visible'))
    .select((eb) => ['visible.id', 'visible.created_at', eb.fn.countAll<number | string>().over().as('seen')])
    .orderBy('visible.created_at', 'desc')
    .orderBy('visible.id', 'desc')
    .limit(query.limit)
    .offset(query.offset);
  // One statement for the page's keys and rows: one snapshot, so every row is one the reader could list.
  const rows = await db
    .selectFrom(page.as('page'))
    .innerJoin('files', 'files.id', 'page.id')
    .selectAll('files')
    .select('page.seen')
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute();
  // An empty page (past the end) still answers the total.
  const seen =
    rows[0] === undefined
      ? (
          await db
            .selectFrom(visible.as('visible'))
            .select((eb) => eb.fn.countAll<number | string>().as('seen'))
            .executeTakeFirstOrThrow()
        ).seen
      : rows[0].seen;
  const total = Math.min(Number(seen), horizon + 1);
  const acls = await findAclsByFileIds(
    db,
    rows.map((row) => row.id),
  );
  return {
    files: rows.map(({ seen: _, ...row }) => toFileRecord(row, acls.get(row.id) ?? [])),
    total,
  };
}

/** The first `count` keys of each of the reader's sets, as one deduplicated union. */
function visibleKeys(
  db: Kysely<DatabaseSchema>,
  query: FileListQuery,
  count: number,
): SelectQueryBuilder<DatabaseSchema, never, ListingKey> {
  const prefix = query.filePathPrefix === '' ? undefined : query.filePathPrefix;
  const created = db
    .selectFrom('files')
    .select(['files.created_at', 'files.id'])
    .where('files.project_id', '=', query.projectId)
    .$if(!query.isAdmin, (qb) => qb.where('files.creator_id', '=', query.readerId))
    .$if(prefix !== undefined, (qb) =>
      qb.where(inPathRange(db, prefix ?? '')).where(startsWith(prefix ?? '')),
    )
    .orderBy('files.created_at', 'desc')
    .orderBy('files.id', 'desc')
    .limit(count);
  const own = db.selectFrom(created.as('own')).selectAll();
  if (query.isAdmin) return own as never;
  const named = (scope: 'user' | 'role', identifier: string) =>
    db
      .selectFrom(
        db
          .selectFrom('file_acl')
          .$if(prefix !== undefined, (qb) =>
            qb.innerJoin('files', 'files.id', 'file_acl.file_id').where(startsWith(prefix ?? '')),
          )
          .select(['file_acl.file_created_at as created_at', 'file_acl.file_id as id'])
          .where('file_acl.project_id', '=', query.projectId)
          .where('file_acl.scope', '=', scope)
          .where('file_acl.identifier', '=', identifier)
          // The creator's own entry (position 0) is in `own` already; the partial index leaves it out.
          // A literal, not a parameter: SQLite picks a partial index only when the query's terms
          // imply the index's own condition at prepare time.
          .where('file_acl.position', '>', sql.lit(0))
          .orderBy('file_acl.file_created_at', 'desc')
          .orderBy('file_acl.file_id', 'desc')
          .limit(count)
          .as(scope),
      )
      .selectAll();
  return own.union(named('user', query.readerId)).union(named('role', query.readerRole)) as never;
}

/**
 * The paths that start with `prefix` lie in [prefix, the prefix with its last code point
 * raised by one) in code-point order: an index range (migrations/acl-listing-keys.ts). On
 * PostgreSQL the comparison names the "C" collation, as its indexes do; SQLite compares
 * bytes already. startsWith stays beside it as the exact test.
 */
function inPathRange(db: Kysely<DatabaseSchema>, prefix: string) {
  const path =
    db.getExecutor().adapter instanceof SqliteAdapter
      ? sql`files.file_path`
      : sql`files.file_path collate "C"`;
  const upper = nextPrefix(prefix);
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
function startsWith(prefix: string) {
  return sql<boolean>`substr(files.file_path, 1, length(cast(${prefix} as text))) = ${prefix}`;
}
