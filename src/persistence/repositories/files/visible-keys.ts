import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { inPathRange, startsWith } from './path-prefix.ts';
import type { ListingShape, ListingValues } from './run-shaped.ts';

type ListingKey = { created_at: number; id: string };

/** The first `count` keys of each of the reader's sets, as one deduplicated union. */
export function visibleKeys(
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
