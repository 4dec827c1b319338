import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Folder shares (issue 36, item 4) and the time of every share.
 * - `folder_shares`: one row per grantee of one owner's folder (`path` `/`-ended, '' the root).
 *   The key (project, owner, path, …) serves a file's ancestors (the paths of its folders, a few
 *   point reads) and a folder's subtree (moves and deletes take its shares along).
 *   `folder_shares_grantee` serves "shared with me", newest first.
 * - `file_acl.shared_at`: when an entry was added (existing entries: their file's creation,
 *   the best time known), so files and folders shared with a user list in one order;
 *   `file_acl_grantee_shared` serves that list (entries past the creator's own only).
 */
export const folderShares: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('folder_shares')
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('owner_id', 'text', (col) => col.notNull())
      // Code-point order on both dialects, as files.file_path's index: a subtree is a range.
      .addColumn('path', 'text', (col) =>
        sqlite ? col.notNull() : col.notNull().modifyEnd(sql`collate "C"`),
      )
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('identifier', 'text', (col) => col.notNull())
      .addColumn('shared_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('folder_shares_pk', ['project_id', 'owner_id', 'path', 'scope', 'identifier'])
      .execute();
    await sql`create index folder_shares_grantee on folder_shares
      (project_id, scope, identifier, shared_at desc, owner_id, path)`.execute(db);
    await db.schema
      .alterTable('file_acl')
      .addColumn('shared_at', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`update file_acl set shared_at = file_created_at`.execute(db);
    await sql`create index file_acl_grantee_shared on file_acl
      (project_id, scope, identifier, shared_at desc, file_id) where position > 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('file_acl_grantee_shared').execute();
    await db.schema.alterTable('file_acl').dropColumn('shared_at').execute();
    await db.schema.dropTable('folder_shares').execute();
  },
};
