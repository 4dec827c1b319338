import type { Kysely } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { toFileRecords } from './file-rows.ts';

/** Ids per statement: well under PostgreSQL's bound-parameter limit and SQLite's. */
const idsPerStatement = 500;

/**
 * The records of many files by id, each read as findById would (row, ACL, folder shares), in
 * statements of `idsPerStatement` ids rather than one round trip per file: an archive of a
 * 10,000-file selection (issue 40) checks every file at creation. Unknown ids are absent from
 * the answer. Read straight from the database, not the kept records: a batch this size would
 * only push the hot files out of FileViewCache.
 */
export async function findFilesByIds(
  db: Kysely<DatabaseSchema>,
  ids: readonly string[],
): Promise<Map<string, FileRecord>> {
  const found = new Map<string, FileRecord>();
  for (let start = 0; start < ids.length; start += idsPerStatement) {
    const chunk = ids.slice(start, start + idsPerStatement);
    const rows = await db.selectFrom('files').selectAll().where('id', 'in', chunk).execute();
    for (const record of await toFileRecords(db, rows)) found.set(record.id, record);
  }
  return found;
}
