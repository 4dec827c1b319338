import { type Kysely, sql } from 'kysely';
import type { FileSearchPage, FileSearchQuery, SearchPosition } from '../../../domain/files/file-search.ts';
import { type AppError, isAppError } from '../../../errors/app-error.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { type FileRow, toFileRecords } from './file-rows.ts';
import { type Candidates, findCandidates } from './search-candidates.ts';
import {
  afterCursor,
  type Dialect,
  idOf,
  isVisible,
  matchesFilters,
  orderBy,
  sortKey,
} from './search-terms.ts';
import { type WalkRow, walkSets } from './search-walk.ts';

/**
 * The examination budget of one search (issue 40, "cost is a page"): how many files a filter's
 * index may hold for its files to be read whole (the filter plan), and how many files of each
 * of the reader's sets a walk examines at most. A thousand index entries is ten pages of the
 * largest page size; past it a page answers what it found and a cursor to go on from.
 */
export const searchBudget = 1_000;

/**
 * The examination of the first, short walk: a few pages' worth, so a common filter fills its
 * page before any index of a filter is counted.
 */
const glancePages = 4;

/**
 * A search of the files the reader may list (GET /api/v1/file with any issue-40 parameter).
 * Three steps, each reading a bounded number of rows whatever the project holds, the first
 * that answers the page ending the search:
 * - a glance: the walk plan (below) with a few pages' worth of examination; a common filter
 *   (or none) fills its page here, and a reader with few files sees all of them;
 * - the filter plan: a filter whose index holds at most `budget` files of the project (or of
 *   all projects, for SQLite's trigram table) gives the candidates; each is tested against
 *   every filter, the reader's access and the cursor, and the page is cut from them, sorted;
 * - else the walk plan (search-walk.ts): the reader's sets, each in the search's order from the
 *   cursor, `budget` files at most each; a set that ran out of budget bounds the page, which
 *   then ends there with `next` at the last file examined, so a rare match is still reached,
 *   page after page, at a page's cost each.
 * Each step answers the same page when it answers: the first `want` matches in order.
 */
export async function searchFiles(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  options: { budget?: number } = {},
): Promise<FileSearchPage> {
  const budget = options.budget ?? searchBudget;
  const dialect: Dialect = { sqlite: isSqlite(db) };
  const want = query.offset + query.limit;
  const { rows, bound } = await findRows(db, query, { dialect, budget, want });
  const page = rows.slice(query.offset, want);
  const last = page.at(-1);
  const next: SearchPosition | undefined =
    rows.length > want && last !== undefined ? toPosition(last, query) : bound;
  // The filter plan's page statement read the files' rows already: no second read.
  const read = page.every((row) => 'project_id' in row)
    ? toFileRecords(db, page as unknown as FileRow[])
    : readRecords(
        db,
        page.map((row) => row.id),
      );
  return { files: await read, next };
}

/** The rows a plan found, in order, and where a walk that ran out of budget stopped. */
type Found = { rows: WalkRow[]; bound?: SearchPosition };

/**
 * The first `want` + 1 matches in order (or fewer and the bound), by the cheapest step that
 * answers: the glance; the whole budget's walk when the glance's matches foretell it fills the
 * page; the filter plan; the whole budget's walk.
 */
async function findRows(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  { dialect, budget, want }: { dialect: Dialect; budget: number; want: number },
): Promise<Found> {
  const filled = (found: Found) => found.rows.length > want || found.bound === undefined;
  const walk = async (examine: number) =>
    merge(await walkSets(db, query, dialect, { examine, budget, want }), query, examine);
  let examined = Math.min(budget, glancePages * (want + 1));
  // A walk the reader's sets refuse (QUERY_TOO_BROAD) may still be served by a filter's index.
  let refused: AppError | undefined;
  let walked = await walk(examined).catch((error: unknown) => {
    if (!isAppError(error) || error.code !== 'QUERY_TOO_BROAD') throw error;
    refused = error;
    return undefined;
  });
  if (walked !== undefined && filled(walked)) return walked;
  if (walked !== undefined && examined < budget && walked.rows.length * budget > want * examined) {
    [walked, examined] = [await walk(budget), budget];
    if (filled(walked)) return walked;
  }
  const candidates = await findCandidates(db, query, dialect, budget);
  if (candidates !== undefined) return { rows: await pageOfCandidates(db, query, dialect, candidates, want) };
  if (walked === undefined) throw refused;
  return examined < budget ? walk(budget) : walked;
}

/** The candidates the reader may list that pass every filter, after the cursor, sorted. */
async function pageOfCandidates(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  dialect: Dialect,
  candidates: Candidates,
  want: number,
): Promise<WalkRow[]> {
  if ('ids' in candidates && candidates.ids.length === 0) return [];
  const key = sortKey(query, dialect);
  const id = idOf('f.id', dialect);
  // The filter's own index range (SQLite, without statistics, is told which), or the ids a
  // side table gave: SQLite would rather walk the project's index in the page's order than
  // look them up, and `+` keeps project_id off every index there.
  const from =
    'index' in candidates
      ? sql`files f ${dialect.sqlite ? sql`indexed by ${sql.raw(candidates.index)}` : sql``} where ${candidates.where}`
      : sql`files f where f.id in (${sql.join(candidates.ids)})
          and ${dialect.sqlite ? sql`+f.project_id` : sql`f.project_id`} = ${query.projectId}`;
  // PostgreSQL: the whole row, so the page's records need no second round trip (searchFiles).
  // SQLite, in process, has no round trip to save, and sorting whole rows cost more there.
  const columns = dialect.sqlite ? sql`f.id as id` : sql`f.*`;
  const { rows } = await sql<WalkRow>`select ${columns}, ${key} as k, 1 as hit, 0 as rn from ${from}
      and ${matchesFilters(query.filters, query, dialect)} and ${isVisible(query, dialect)}
      and ${afterCursor(key, id, query)}
    order by ${orderBy(key, id, query)} limit ${want + 1}`.execute(db);
  return rows;
}

/**
 * The union of the sets' files in the search's order, deduplicated, up to the least of the
 * sets' bounds (the last file a set examined when it used its whole budget, numbered `budget`):
 * past it, that set may hold files not yet examined, so the page stops there and `bound` is
 * where the next one starts.
 */
function merge(sets: WalkRow[][], query: FileSearchQuery, budget: number): Found {
  const compare = comparator(query);
  let bound: WalkRow | undefined;
  const byId = new Map<string, WalkRow>();
  for (const row of sets.flat()) {
    if (Number(row.rn) === budget && (bound === undefined || compare(row, bound) < 0)) bound = row;
    if (Number(row.hit) === 1) byId.set(row.id, row);
  }
  const rows = [...byId.values()]
    .filter((row) => bound === undefined || compare(row, bound) <= 0)
    .sort(compare);
  return { rows, bound: bound === undefined ? undefined : toPosition(bound, query) };
}

/** Orders rows as the search does: keys (names in code-point order), then ids. */
function comparator(query: FileSearchQuery) {
  const sign = query.order === 'asc' ? 1 : -1;
  const keyOf = (row: WalkRow) => (query.sort === 'name' ? String(row.k) : Number(row.k));
  return (a: WalkRow, b: WalkRow): number => {
    const [x, y] = [keyOf(a), keyOf(b)];
    const byKey =
      typeof x === 'string' ? Buffer.compare(Buffer.from(x), Buffer.from(y as string)) : x - (y as number);
    if (byKey !== 0) return sign * Math.sign(byKey);
    return sign * Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
  };
}

function toPosition(row: WalkRow, query: FileSearchQuery): SearchPosition {
  return { key: query.sort === 'name' ? String(row.k) : Number(row.k), id: row.id };
}

/** The page's records, in the page's order (their ACLs and folder shares in two queries more). */
async function readRecords(db: Kysely<DatabaseSchema>, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A file deleted between the two reads is left out, as a read a moment later would.
  return toFileRecords(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}
