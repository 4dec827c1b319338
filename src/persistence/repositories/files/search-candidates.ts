import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { FileSearchQuery } from '../../../domain/files/file-search.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { nextPrefix } from './path-prefix.ts';
import { containsPattern, customValueIs, type Dialect, fileNameOf } from './search-terms.ts';

/**
 * The filter plan's candidates: the ids a side table's index gave (names, customData), or the
 * index of `files` a filter on its own columns reads (type, size, dates, path), which the page's
 * statement then walks itself: looking up a thousand ids in `files` reads a thousand scattered
 * rows (~8 ms at a million files), its own index range a few pages.
 */
export type Candidates = { ids: string[] } | { index: string; where: RawBuilder<unknown> };

/**
 * The filter plan's first step: for each filter an index serves, the ids of the project's
 * files it holds, read from that index up to `budget + 1` of them, the most selective kinds
 * first. The first filter that holds at most `budget` files drives the search: its files are
 * all the candidates (each tested against every filter and the reader's access after). None:
 * undefined, and the search walks the reader's sets instead (search-walk.ts).
 */
export async function findCandidates(
  db: Kysely<DatabaseSchema>,
  query: FileSearchQuery,
  dialect: Dialect,
  budget: number,
): Promise<Candidates | undefined> {
  for (const probe of probesOf(query, dialect)) {
    const { rows } = await sql<{ id: string }>`${probe.ids} limit ${budget + 1}`.execute(db);
    if (rows.length > budget) continue;
    const { index, where } = probe;
    return index !== undefined && where !== undefined ? { index, where } : { ids: rows.map((row) => row.id) };
  }
  return undefined;
}

/** A filter's ids; on `files`' own index: that index and the filter's condition on `f`. */
type Probe = { ids: RawBuilder<unknown>; index?: string; where?: RawBuilder<unknown> };

/** One statement per indexed filter, each reading one index range (or trigram posting lists). */
function probesOf(query: FileSearchQuery, { sqlite }: Dialect): Probe[] {
  const { filters, projectId } = query;
  const probes: Probe[] = [];
  // Counted from the index alone (no id: files_project_created_idx does not hold it).
  const onFiles = (index: string, where: RawBuilder<unknown>) =>
    probes.push({ ids: sql`select 1 as id from files f where ${where}`, index, where });
  if (filters.name !== undefined) {
    // Trigrams: case-insensitive on both, a superset of the LIKE every candidate passes after.
    // SQLite's trigram table spans projects: a name common elsewhere counts against the budget.
    const phrase = `"${filters.name.replace(/"/g, '""')}"`;
    probes.push({
      ids: sqlite
        ? sql`select n.file_id as id from file_names_fts join file_names n on n.rowid = file_names_fts.rowid
            where file_names_fts match ${phrase}`
        : // Planned without the LIMIT (a materialized CTE), PostgreSQL takes the trigram index for
          // a rare substring rather than a sequential scan it hopes to stop early.
          sql`with named as materialized (select f.id from files f where f.project_id = ${projectId}
            and lower(${sql.raw(fileNameOf('f'))}) like lower(${containsPattern(filters.name)}) escape '\\')
            select id from named`,
    });
  }
  for (const { key, value } of filters.customData)
    probes.push({
      ids: sql`select v.file_id as id from file_custom_values v
        where v.project_id = ${projectId} and v.key = ${key} and ${customValueIs(value)}`,
    });
  const type = filters.contentType;
  if (type !== undefined && 'exact' in type)
    onFiles('files_project_type', sql`f.project_id = ${projectId} and f.content_type = ${type.exact}`);
  if (filters.minSize !== undefined || filters.maxSize !== undefined)
    onFiles(
      'files_project_size',
      sql`f.project_id = ${projectId}
      and f.content_size_bytes >= ${filters.minSize ?? 0}
      and f.content_size_bytes <= ${filters.maxSize ?? Number.MAX_SAFE_INTEGER}`,
    );
  if (filters.createdAfter !== undefined || filters.createdBefore !== undefined)
    onFiles(
      'files_project_created_idx',
      sql`f.project_id = ${projectId}
      and f.created_at > ${filters.createdAfter ?? -1} and f.created_at < ${filters.createdBefore ?? Number.MAX_SAFE_INTEGER}`,
    );
  if (type !== undefined && 'prefix' in type)
    onFiles(
      'files_project_type',
      sql`f.project_id = ${projectId}
      and f.content_type >= ${type.prefix} and f.content_type < ${nextPrefix(type.prefix) ?? ''}`,
    );
  const prefix = filters.filePathPrefix;
  if (prefix !== undefined) {
    const path = sqlite ? sql`f.file_path` : sql`f.file_path collate "C"`;
    const upper = nextPrefix(prefix);
    onFiles(
      'files_project_path_idx',
      sql`f.project_id = ${projectId} and ${path} >= ${prefix}
      ${upper === undefined ? sql`` : sql`and ${path} < ${upper}`}`,
    );
  }
  return probes;
}
