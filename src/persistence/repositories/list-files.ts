import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type SelectQueryBuilder,
  SqliteAdapter,
  sql,
} from 'kysely';
import type { FileListQuery, FileRecord } from '../../domain/ports.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { findAclsByFileIds, toFileRecord } from './file-rows.ts';

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
 * A filePath prefix is tested on each file walked (on PostgreSQL also an index range of
 * paths, when its planner prefers it): see inPathRange and docs/decisions.md.
 */
export async function listFiles(
  db: Kysely<DatabaseSchema>,
  query: FileListQuery,
  options: { pathRangeCap?: number } = {},
): Promise<{ files: FileRecord[]; total: number }> {
  const rangeCap = options.pathRangeCap ?? pathRangeCap;
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
  const acls = await findAclsByFileIds(
    db,
    rows.map((row) => row.id),
  );
  return {
    files: rows.map(({ seen: _, ...row }) => toFileRecord(row, acls.get(row.id) ?? [])),
    total,
  };
}

/** What changes the SQL of a listing; everything else is a parameter value. */
type ListingShape = {
  isAdmin: boolean;
  hasPrefix: boolean;
  hasUpper: boolean;
  /** The files come from the project's path range (SQLite, a prefix few files hold). */
  byPath: boolean;
};
type ListingValues = {
  projectId: string;
  readerId: string;
  readerRole: string;
  prefix: string;
  upper: string;
  /** How many keys to read from each set. */
  count: number;
  /** How many paths of the prefix's range to count before walking the sets instead. */
  rangeCap: number;
  limit: number;
  offset: number;
};

/**
 * Placeholder values, each unique, to compile a shape once: a run puts its own value wherever
 * the compiled parameters hold a placeholder (a value the builder wrote itself, like the
 * scope 'user', stays). Building and compiling these queries with Kysely costs ~0.35 ms a
 * listing otherwise, more than SQLite takes to run them.
 */
const placeholders: ListingValues = {
  projectId: '\u0000projectId',
  readerId: '\u0000readerId',
  readerRole: '\u0000readerRole',
  prefix: '\u0000prefix',
  upper: '\u0000upper',
  count: -1_000_001,
  limit: -1_000_002,
  offset: -1_000_003,
  rangeCap: -1_000_004,
};
const placeholderNames = new Map<unknown, keyof ListingValues>(
  Object.entries(placeholders).map(([name, value]) => [value, name as keyof ListingValues]),
);
const compiledByDatabase = new WeakMap<Kysely<DatabaseSchema>, Map<string, CompiledQuery>>();

async function runShaped<Row>(
  db: Kysely<DatabaseSchema>,
  name: string,
  shape: ListingShape,
  values: ListingValues,
  build: (db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) => Compilable<Row>,
): Promise<Row[]> {
  let compiled = compiledByDatabase.get(db);
  if (compiled === undefined) {
    compiled = new Map();
    compiledByDatabase.set(db, compiled);
  }
  const key = `${name}:${shape.isAdmin}:${shape.hasPrefix}:${shape.hasUpper}:${shape.byPath}`;
  let query = compiled.get(key);
  if (query === undefined) {
    query = build(db, shape, placeholders).compile();
    compiled.set(key, query);
  }
  const parameters = query.parameters.map((parameter) => {
    const placeholder = placeholderNames.get(parameter);
    return placeholder === undefined ? parameter : values[placeholder];
  });
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}

/** The page's rows, each with how many keys the union held (capped per set at `count`). */
function selectPage(db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) {
  const page = db
    .selectFrom(visibleKeys(db, shape, values).as('visible'))
    .select((eb) => ['visible.id', 'visible.created_at', eb.fn.countAll<number | string>().over().as('seen')])
    .orderBy('visible.created_at', 'desc')
    .orderBy('visible.id', 'desc')
    .limit(values.limit)
    .offset(values.offset);
  // One statement for the page's keys and rows: one snapshot, so every row is one the reader could list.
  return db
    .selectFrom(page.as('page'))
    .innerJoin('files', 'files.id', 'page.id')
    .selectAll('files')
    .select('page.seen')
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc');
}

function countVisible(db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) {
  return db
    .selectFrom(visibleKeys(db, shape, values).as('visible'))
    .select((eb) => eb.fn.countAll<number | string>().as('seen'));
}

/** How many files of the project hold the prefix, counted up to `rangeCap` on the path index. */
function countPathRange(db: Kysely<DatabaseSchema>, _shape: ListingShape, values: ListingValues) {
  const range = db
    .selectFrom('files')
    .select('files.id')
    .where('files.project_id', '=', values.projectId)
    .where(inPathRange(values.prefix, values.upper, 'binary'))
    .limit(values.rangeCap);
  return db.selectFrom(range.as('range')).select((eb) => eb.fn.countAll<number>().as('held'));
}

/** The first `count` keys of each of the reader's sets, as one deduplicated union. */
function visibleKeys(
  db: Kysely<DatabaseSchema>,
  shape: ListingShape,
  values: ListingValues,
): SelectQueryBuilder<DatabaseSchema, never, ListingKey> {
  if (shape.byPath) return visibleInPathRange(db, shape, values);
  const created = db
    .selectFrom('files')
    .select(['files.created_at', 'files.id'])
    .where('files.project_id', '=', values.projectId)
    .$if(!shape.isAdmin, (qb) => qb.where('files.creator_id', '=', values.readerId))
    .$if(shape.hasPrefix && !isSqlite(db), (qb) =>
      qb.where(inPathRange(values.prefix, shape.hasUpper ? values.upper : undefined)),
    )
    .$if(shape.hasPrefix, (qb) => qb.where(startsWith(values.prefix)))
    .orderBy('files.created_at', 'desc')
    .orderBy('files.id', 'desc')
    .limit(values.count);
  const own = db.selectFrom(created.as('own')).selectAll();
  if (shape.isAdmin) return own as never;
  const named = (scope: 'user' | 'role', identifier: string) =>
    db
      .selectFrom(
        db
          .selectFrom('file_acl')
          .$if(shape.hasPrefix, (qb) =>
            qb.innerJoin('files', 'files.id', 'file_acl.file_id').where(startsWith(values.prefix)),
          )
          .select(['file_acl.file_created_at as created_at', 'file_acl.file_id as id'])
          .where('file_acl.project_id', '=', values.projectId)
          .where('file_acl.scope', '=', scope)
          .where('file_acl.identifier', '=', identifier)
          // The creator's own entry (position 0) is in `own` already; the partial index leaves it out.
          // A literal, not a parameter: SQLite picks a partial index only when the query's terms
          // imply the index's own condition at prepare time.
          .where('file_acl.position', '>', sql.lit(0))
          .orderBy('file_acl.file_created_at', 'desc')
          .orderBy('file_acl.file_id', 'desc')
          .limit(values.count)
          .as(scope),
      )
      .selectAll();
  return own.union(named('user', values.readerId)).union(named('role', values.readerRole)) as never;
}

/**
 * The files of the prefix's path range (at most pathRangeCap of them) that the reader may list:
 * their own, or those whose ACL names them or their role (entries past the creator's own).
 */
function visibleInPathRange(db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) {
  return db
    .selectFrom('files')
    .select(['files.created_at', 'files.id'])
    .where('files.project_id', '=', values.projectId)
    .where(inPathRange(values.prefix, values.upper, 'binary'))
    .where(startsWith(values.prefix))
    .$if(!shape.isAdmin, (qb) =>
      qb.where((eb) => {
        const named = (scope: 'user' | 'role', identifier: string) =>
          eb.exists(
            eb
              .selectFrom('file_acl')
              .select('file_acl.file_id')
              .whereRef('file_acl.file_id', '=', 'files.id')
              .where('file_acl.scope', '=', scope)
              .where('file_acl.identifier', '=', identifier)
              .where('file_acl.position', '>', sql.lit(0)),
          );
        return eb.or([
          eb('files.creator_id', '=', values.readerId),
          named('user', values.readerId),
          named('role', values.readerRole),
        ]);
      }),
    ) as never;
}

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
function inPathRange(prefix: string, upper: string | undefined, collation: 'C' | 'binary' = 'C') {
  // SQLite's default BINARY collation is already code-point order (and names no "C").
  const path = collation === 'C' ? sql`files.file_path collate "C"` : sql`files.file_path`;
  return upper === undefined
    ? sql<boolean>`${path} >= ${prefix}`
    : sql<boolean>`${path} >= ${prefix} and ${path} < ${upper}`;
}

export function isSqlite(db: Kysely<DatabaseSchema>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
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
