import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { FileSearchQuery } from '../../../domain/files/file-search.ts';
import { queryTooBroad } from '../../../errors/errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { afterCursor, type Dialect, idOf, matchesFilters, orderBy, sortKey } from './search-terms.ts';

/** Folder shares with the caller a walk follows at most, each one more index walk. */
export const maxFolderWalks = 16;

/** A row a walk answers: a file that passes every filter (`hit`), or the last one it examined. */
export type WalkRow = { id: string; k: number | string; hit: number | boolean; rn: number | string };

/**
 * One of the reader's sets: files from `from`/`where`, walked in `key`/`id` order (an index's
 * order). `ordered: false`: the set has no index in the search's order; it is read whole (at
 * most the budget, else QUERY_TOO_BROAD) and sorted.
 */
type ReaderSet = {
  name: string;
  from: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
  ordered: boolean;
  /** PostgreSQL: the set's index is in `key` order but not in `id collate "C"` (`asc`/`desc`). */
  byKeyOnly?: RawBuilder<unknown>;
};

/**
 * The walk plan: each of the reader's sets in the search's order from the cursor, at most
 * `examine` files examined per set (a set with no index in the order: read whole, at most
 * `budget` files, else QUERY_TOO_BROAD), each tested against every filter. A set answers its files
 * that pass (at most `want` + 1: its statement streams its index and stops there, so a common
 * filter examines a page's worth, not the budget) and, when it found fewer and examined its
 * whole examination, the last file it examined (`rn` = examine): the search goes no further than the
 * least of those (search-files.ts).
 */
export async function walkSets(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  dialect: Dialect,
  options: { examine: number; budget: number; want: number },
): Promise<WalkRow[][]> {
  const sets = await readerSets(db, query, dialect);
  const filters = matchesFilters(query.filters, query, dialect);
  return Promise.all(
    sets.map(async (set) => {
      if (!set.ordered) return readWhole(db, query, set, filters, { ...options, dialect });
      const direction = orderBy(set.key, set.id, query);
      const walked = (columns: RawBuilder<unknown>, limit: number) => {
        const where = sql`${set.where} and ${afterCursor(set.key, set.id, query)}`;
        if (set.byKeyOnly === undefined || dialect.sqlite)
          return sql`select ${columns} from ${set.from} where ${where} order by ${direction} limit ${limit}`;
        // The index orders ids in the database's collation, the walk in "C": stream the index
        // by its key alone, cut after `limit` entries and their ties (an entry passing every
        // test, ties included, is among them), and sort only those — not the whole set.
        return sql`select * from (select ${columns} from ${set.from} where ${where}
          order by ${set.key} ${set.byKeyOnly} fetch first ${sql.lit(limit)} rows with ties) t
          order by ${orderBy(sql`t.k`, sql.raw('t.id collate "C"'), query)} limit ${limit}`;
      };
      // No outer order: the subquery streams in its index's order (a coroutine on SQLite, a
      // Limit over a Subquery Scan on PostgreSQL) and the outer limit stops it at want + 1 hits;
      // an outer sort would read the whole budget first. The merge sorts again.
      const examined = walked(
        sql`f.id as id, ${set.key} as k, case when ${filters} then 1 else 0 end as hit`,
        options.examine,
      );
      if (!dialect.sqlite) {
        // One round trip: the walk's rows are kept as they stream (a CTE read on demand); the
        // bound (the examine-th file) is read from them only when fewer than want + 1 passed.
        const { rows } = await sql<WalkRow>`with w as materialized (${examined}),
          h as (select id, k from w where hit = 1 limit ${options.want + 1})
          select id, k, 1 as hit, 0 as rn from h
          union all
          select b.id, b.k, 0 as hit, ${sql.lit(options.examine)} as rn
          from (select id, k from w offset ${options.examine - 1} limit 1) b
          where (select count(*) from h) <= ${options.want}`.execute(db);
        return rows;
      }
      const { rows: hits } = await sql<WalkRow>`select y.id, y.k, 1 as hit, 0 as rn from (
        ${examined}
      ) y where y.hit = 1 limit ${options.want + 1}`.execute(db);
      if (hits.length > options.want) return hits;
      // Fewer: the walk examined all it could; the examine-th file, if any, is its bound.
      const { rows: last } = await sql<WalkRow>`select w.id, w.k, 0 as hit, ${sql.lit(options.examine)} as rn
      from (${walked(sql`f.id as id, ${set.key} as k`, options.examine)}) w
      limit 1 offset ${options.examine - 1}`.execute(db);
      return [...hits, ...last];
    }),
  );
}

/** A set with no index in the search's order: all of it (at most the budget), filtered and sorted. */
async function readWhole(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  set: ReaderSet,
  filters: RawBuilder<unknown>,
  { budget, want, dialect }: { budget: number; want: number; dialect: Dialect },
): Promise<WalkRow[]> {
  const { rows: counted } = await sql<{ held: number | string }>`select count(*) as held from (
      select 1 from ${set.from} where ${set.where} limit ${budget + 1}) c`.execute(db);
  if (Number(counted[0]?.held ?? 0) > budget)
    throw queryTooBroad(
      `sort=${query.sort} over more than ${budget} files shared with you (${set.name}); ` +
        'sort by createdAt, use scope=mine, or add a name, customData or contentType filter',
    );
  const key = sortKey(query, dialect);
  const id = idOf('f.id', dialect);
  const { rows } = await sql<WalkRow>`select f.id as id, ${key} as k, 1 as hit, 0 as rn
    from ${set.from} where ${set.where} and ${filters} and ${afterCursor(key, id, query)}
    order by ${orderBy(key, id, query)} limit ${want + 1}`.execute(db);
  return rows;
}

/** The reader's sets for the query's scope (admins under `all`: the whole project, one set). */
async function readerSets(db: Kysely<DatabaseSchema>, query: FileSearchQuery, dialect: Dialect) {
  const { projectId, readerId, readerRole } = query;
  const key = sortKey(query, dialect);
  const files = sql`files f`;
  // A file without a size (not verified yet) is never a hit in size order; saying so lets SQLite
  // walk the size indexes, which hold only files with one (migrations/upload-write-path.ts).
  const sized = query.sort === 'size' ? sql`and f.content_size_bytes is not null` : sql``;
  if (query.isAdmin && query.scope === 'all')
    return [
      {
        name: 'project',
        from: files,
        where: sql`f.project_id = ${projectId} ${sized}`,
        key,
        id: idOf('f.id', dialect),
        ordered: true,
      },
    ];
  const sets: ReaderSet[] = [];
  if (query.scope !== 'shared')
    sets.push({
      name: 'own',
      from: files,
      where: sql`f.project_id = ${projectId} and f.creator_id = ${readerId} ${sized}`,
      key,
      id: idOf('f.id', dialect),
      ordered: true,
    });
  if (query.scope === 'mine') return sets;
  const notOwn = query.scope === 'shared' ? sql`and f.creator_id <> ${readerId}` : sql``;
  for (const [scope, identifier] of [
    ['user', readerId],
    ['role', readerRole],
  ] as const) {
    // file_acl carries its file's creation time: in createdAt order its own index is walked.
    const byTime = query.sort === 'createdAt';
    sets.push({
      name: `files shared with your ${scope === 'user' ? 'id' : 'role'}`,
      from: sql`file_acl a join files f on f.id = a.file_id`,
      where: sql`a.project_id = ${projectId} and a.scope = ${scope} and a.identifier = ${identifier}
        and a.position > ${sql.lit(0)} ${notOwn}`,
      key: byTime ? sql`a.file_created_at` : key,
      id: idOf(byTime ? 'a.file_id' : 'f.id', dialect),
      ordered: byTime,
      byKeyOnly: byTime ? sql.raw(query.order === 'asc' ? 'asc' : 'desc') : undefined,
    });
  }
  const { rows: folders } = await sql<{ owner_id: string; path: string }>`select s.owner_id, s.path
    from folder_shares s where s.project_id = ${projectId} and s.owner_id <> ${readerId}
      and ((s.scope = 'user' and s.identifier = ${readerId}) or (s.scope = 'role' and s.identifier = ${readerRole}))
    limit ${maxFolderWalks + 1}`.execute(db);
  if (folders.length > maxFolderWalks)
    throw queryTooBroad(
      `more than ${maxFolderWalks} folders are shared with you; ` +
        'use scope=mine or add a name, customData, contentType, size or date filter',
    );
  for (const folder of folders)
    sets.push({
      name: `folder ${folder.path}`,
      from: files,
      where: sql`f.project_id = ${projectId} and f.creator_id = ${folder.owner_id}
        and substr(f.file_path, 1, length(cast(${folder.path} as text))) = ${folder.path} ${sized}`,
      key,
      id: idOf('f.id', dialect),
      ordered: true,
    });
  return sets;
}
