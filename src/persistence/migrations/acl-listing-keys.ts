import { type Kysely, type QueryExecutorProvider, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Listing costs a page, not a project (issue 9). A reader's files are three sets: those they
 * created, those whose ACL names them, those whose ACL names their role. Each set gets an
 * index in listing order, so its first k entries are the first k entries of the index:
 * - files (project_id, creator_id, created_at, id): the reader's own files, newest first;
 * - file_acl (project_id, scope, identifier, file_created_at, file_id), entries other than
 *   the creator's own: the files shared with a user or a role, newest first. file_acl carries its file's project and creation time (both never
 *   change once the file exists) because an index cannot span two tables.
 * The (project_id, creator_id, id) index that served the old count, and (scope, identifier),
 * have no query left: dropped, so writes do not keep them up.
 * The defaults only let SQLite add NOT NULL columns to existing rows; the backfill (and every
 * insert since) writes the real values.
 */
export const aclListingKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('file_acl')
      .addColumn('project_id', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('file_acl')
      .addColumn('file_created_at', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await backfillAclListingKeys(db);
    // Partial: position 0 is the creator's own entry, listed through files already. Left out,
    // a reader's "shared with me" walk never crosses their own files, and creating a file
    // does not touch this index.
    await db.schema
      .createIndex('file_acl_listing_idx')
      .on('file_acl')
      .columns(['project_id', 'scope', 'identifier', 'file_created_at', 'file_id'])
      .where(sql.ref('position'), '>', 0)
      .execute();
    await db.schema.dropIndex('file_acl_scope_identifier_idx').execute();
    await db.schema
      .createIndex('files_project_creator_created_idx')
      .on('files')
      .columns(['project_id', 'creator_id', 'created_at', 'id'])
      .execute();
    await db.schema.dropIndex('files_project_creator_idx').execute();
    await createPathIndexes(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('files_project_path_idx').ifExists().execute();
    await db.schema.dropIndex('files_project_creator_path_idx').ifExists().execute();
    await db.schema
      .createIndex('files_project_creator_idx')
      .on('files')
      .columns(['project_id', 'creator_id', 'id'])
      .execute();
    await db.schema.dropIndex('files_project_creator_created_idx').execute();
    await db.schema
      .createIndex('file_acl_scope_identifier_idx')
      .on('file_acl')
      .columns(['scope', 'identifier'])
      .execute();
    await db.schema.dropIndex('file_acl_listing_idx').execute();
    await db.schema.alterTable('file_acl').dropColumn('file_created_at').execute();
    await db.schema.alterTable('file_acl').dropColumn('project_id').execute();
  },
};

/**
 * Copies each entry's file's project and creation time into entries that lack them (''): rows
 * from before this migration, or from an export written before it (coffer import).
 */
export async function backfillAclListingKeys(db: QueryExecutorProvider): Promise<void> {
  await sql`
    update file_acl set
      project_id = (select f.project_id from files f where f.id = file_acl.file_id),
      file_created_at = (select f.created_at from files f where f.id = file_acl.file_id)
    where project_id = ''`.execute(db);
}

/**
 * A filePath prefix is a range of paths in code-point order (repositories/files/path-prefix.ts)
 * on PostgreSQL, whose planner picks the range or the walk in time order from its statistics. It compares
 * in the database's collation unless told otherwise: these indexes (and the query) use "C",
 * byte order, which is code-point order in UTF-8. SQLite, without statistics to choose by,
 * walks in time order (repositories/files/visible-keys.ts) and needs no path index.
 */
async function createPathIndexes(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db.schema
    .createIndex('files_project_path_idx')
    .on('files')
    .expression(sql`project_id, file_path collate "C"`)
    .execute();
  await db.schema
    .createIndex('files_project_creator_path_idx')
    .on('files')
    .expression(sql`project_id, creator_id, file_path collate "C"`)
    .execute();
}
