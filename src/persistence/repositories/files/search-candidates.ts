import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { FileSearchQuery } from '../../../domain/files/file-search.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { nextPrefix } from './path-prefix.ts';
import { containsPattern, customValueIs, type Dialect, fileNameOf } from './search-terms.ts';

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
): Promise<string[] | undefined> {
  for (const probe of probesOf(query, dialect)) {
    const { rows } = await sql<{ id: string }>`${probe} limit ${budget + 1}`.execute(db);
    if (rows.length <= budget) return rows.map((row) => row.id);
  }
  return undefined;
}

/** One statement per indexed filter, each reading one index range (or trigram posting lists). */
function probesOf(query: FileSearchQuery, { sqlite }: Dialect): RawBuilder<unknown>[] {
  const { filters, projectId } = query;
  const probes: RawBuilder<unknown>[] = [];
  if (filters.name !== undefined) {
    // Trigrams: case-insensitive on both, a superset of the LIKE every candidate passes after.
    // SQLite's trigram table spans projects: a name common elsewhere counts against the budget.
    const phrase = `"${filters.name.replace(/"/g, '""')}"`;
    probes.push(
      sqlite
        ? sql`select n.file_id as id from file_names_fts join file_names n on n.rowid = file_names_fts.rowid
            where file_names_fts match ${phrase}`
        : sql`select f.id from files f where f.project_id = ${projectId}
            and lower(${sql.raw(fileNameOf('f'))}) like lower(${containsPattern(filters.name)}) escape '\\'`,
    );
  }
  for (const { key, value } of filters.customData)
    probes.push(sql`select v.file_id as id from file_custom_values v
      where v.project_id = ${projectId} and v.key = ${key} and ${customValueIs(value)}`);
  const type = filters.contentType;
  if (type !== undefined && 'exact' in type)
    probes.push(
      sql`select f.id from files f where f.project_id = ${projectId} and f.content_type = ${type.exact}`,
    );
  if (filters.minSize !== undefined || filters.maxSize !== undefined)
    probes.push(sql`select f.id from files f where f.project_id = ${projectId}
      and f.content_size_bytes >= ${filters.minSize ?? 0}
      and f.content_size_bytes <= ${filters.maxSize ?? Number.MAX_SAFE_INTEGER}`);
  if (filters.createdAfter !== undefined || filters.createdBefore !== undefined)
    probes.push(sql`select f.id from files f where f.project_id = ${projectId}
      and f.created_at > ${filters.createdAfter ?? -1} and f.created_at < ${filters.createdBefore ?? Number.MAX_SAFE_INTEGER}`);
  if (type !== undefined && 'prefix' in type)
    probes.push(sql`select f.id from files f where f.project_id = ${projectId}
      and f.content_type >= ${type.prefix} and f.content_type < ${nextPrefix(type.prefix) ?? ''}`);
  const prefix = filters.filePathPrefix;
  if (prefix !== undefined) {
    const path = sqlite ? sql`f.file_path` : sql`f.file_path collate "C"`;
    const upper = nextPrefix(prefix);
    probes.push(sql`select f.id from files f where f.project_id = ${projectId} and ${path} >= ${prefix}
      ${upper === undefined ? sql`` : sql`and ${path} < ${upper}`}`);
  }
  return probes;
}
