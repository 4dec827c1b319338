import type { Kysely } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { FileListQuery } from '../../../domain/files/file-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { toFileRecords } from './file-rows.ts';
import { countPathRange, countVisible, selectPage } from './listing-statements.ts';
import { nextPrefix } from './path-prefix.ts';
import { type ListingShape, type ListingValues, runShaped } from './run-shaped.ts';

/**
 * How many pages past the requested one `total` counts exactly. Past that horizon `total` is
 * a lower bound (docs/decisions.md): counting further would cost the reader's whole set.
 */
export const pagesCountedAhead = 10;

/**
 * On SQLite, a filePath prefix that the project's path index holds at most this many times
 * is listed from that range (read whole, filtered by the reader's access, sorted); a prefix
 * held more often is looked for while walking the reader's sets in time order, where it is
 * then frequent enough to fill a page soon. Either way a listing reads a bounded number of
 * rows: a prefix that few files hold no longer walks a reader's whole set (issue 9).
 */
export const pathRangeCap = 5_000;

/**
 * The files a reader may list, newest first: the creator's own, those whose ACL names the
 * reader or the reader's role, or all of the project for its admins. permissionScope "*"
 * lets anyone holding the id read a file, but does not list it (DESIGN §4).
 *
 * The cost is bounded by the page, not by the project (issue 9): each of the reader's sets
 * is read from its own index in listing order (migrations/acl-listing-keys.ts), at most up
 * to the horizon (offset + page + pagesCountedAhead pages, plus one to tell whether more
 * follow); their union, deduplicated, yields the page and a count capped at the horizon.
 * A filePath prefix is tested on each file walked (on PostgreSQL also an index range of
 * paths, when its planner prefers it): see inPathRange and docs/decisions.md.
 */
export async function listFiles(
  db: Kysely<DatabaseSchema>,
  query: FileListQuery,
  options: { pathRangeCap?: number } = {},
): Promise<{ files: FileRecord[]; total: number }> {
  const rangeCap = options.pathRangeCap ?? pathRangeCap;
  const { shape, values, horizon } = toListing(query, rangeCap);
  if (shape.hasPrefix && shape.hasUpper && isSqlite(db)) {
    const [range] = await runShaped(db, 'range', shape, values, countPathRange);
    shape.byPath = Number(range?.held ?? 0) <= rangeCap;
  }
  const rows = await runShaped(db, 'page', shape, values, selectPage);
  // An empty page (past the end) still answers the total.
  const seen =
    rows[0] === undefined
      ? (await runShaped(db, 'count', shape, values, countVisible))[0]?.seen
      : rows[0].seen;
  const total = Math.min(Number(seen ?? 0), horizon + 1);
  return {
    files: await toFileRecords(
      db,
      rows.map(({ seen: _, ...row }) => row),
    ),
    total,
  };
}

/** What the statements of one listing are built from; `horizon` is how far the total counts. */
function toListing(
  query: FileListQuery,
  rangeCap: number,
): { shape: ListingShape; values: ListingValues; horizon: number } {
  const prefix = query.filePathPrefix === '' ? undefined : query.filePathPrefix;
  const upper = prefix === undefined ? undefined : nextPrefix(prefix);
  const shape: ListingShape = {
    isAdmin: query.isAdmin,
    hasPrefix: prefix !== undefined,
    hasUpper: upper !== undefined,
    byPath: false,
  };
  const horizon = query.offset + query.limit * (1 + pagesCountedAhead);
  const values: ListingValues = {
    projectId: query.projectId,
    readerId: query.readerId,
    readerRole: query.readerRole,
    prefix: prefix ?? '',
    upper: upper ?? '',
    count: horizon + 1,
    rangeCap: rangeCap + 1,
    limit: query.limit,
    offset: query.offset,
  };
  return { shape, values, horizon };
}
