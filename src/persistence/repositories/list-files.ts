import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { FileListQuery, FileRecord } from '../../domain/ports.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { findAclsByFileIds, toFileRecord } from './file-rows.ts';

/**
 * The files a reader may list, newest first: the creator's own, those whose ACL names the
 * reader or the reader's role, or all of the project for its admins. permissionScope "*"
 * lets anyone holding the id read a file, but does not list it (DESIGN §4).
 */
export async function listFiles(
  db: Kysely<DatabaseSchema>,
  query: FileListQuery,
): Promise<{ files: FileRecord[]; total: number }> {
  const visible = db
    .selectFrom('files')
    .where('project_id', '=', query.projectId)
    .$if(!query.isAdmin, (qb) => qb.where((eb) => isReadableBy(eb, query)))
    .$if(query.filePathPrefix !== undefined && query.filePathPrefix !== '', (qb) =>
      qb.where(startsWith(query.filePathPrefix ?? '')),
    );
  const rows = await visible
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  // A page that is neither empty nor full is the last one: its end is the total, no count needed.
  const total =
    rows.length > 0 && rows.length < query.limit
      ? query.offset + rows.length
      : Number((await visible.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total);
  const acls = await findAclsByFileIds(
    db,
    rows.map((row) => row.id),
  );
  return { files: rows.map((row) => toFileRecord(row, acls.get(row.id) ?? [])), total };
}

function isReadableBy(eb: ExpressionBuilder<DatabaseSchema, 'files'>, query: FileListQuery) {
  // Not correlated: both dialects evaluate the ACL side once, through the
  // (scope, identifier) index, and test each of the project's files against that set.
  const namedInAcl = eb
    .selectFrom('file_acl')
    .select('file_acl.file_id')
    .where((acl) =>
      acl.or([
        acl.and([acl('file_acl.scope', '=', 'user'), acl('file_acl.identifier', '=', query.readerId)]),
        acl.and([acl('file_acl.scope', '=', 'role'), acl('file_acl.identifier', '=', query.readerRole)]),
      ]),
    );
  return eb.or([eb('files.creator_id', '=', query.readerId), eb('files.id', 'in', namedInAcl)]);
}

/**
 * A literal prefix test. LIKE would need its wildcards escaped and is case-insensitive on
 * SQLite; comparing the leading characters is exact on both dialects (both count characters,
 * not bytes, in substr and length).
 */
function startsWith(prefix: string) {
  return sql<boolean>`substr(files.file_path, 1, length(cast(${prefix} as text))) = ${prefix}`;
}
